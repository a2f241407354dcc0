/**
 * A value as one word of a command a person may copy into a POSIX shell: as it is when it is
 * a plain token (an id, a name: letters, digits, `_ . : @ + / = -`), otherwise in single quotes.
 * For hints that name something the service or a file gave (`msgctl exports get ID --wait`):
 * an id of `$(…)` from a stand-in service would run when pasted.
 */
export function shellWord(value: string): string {
  return /^[\w.:@+/=-]+$/.test(value) ? value : shQuote(value);
}

/** `text` in POSIX single quotes, always (a `'` inside as `'\''`): one word, nothing in it expanded. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
