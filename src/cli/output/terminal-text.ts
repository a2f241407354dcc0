/**
 * Text from the service or from a file, made safe to show a person.
 *
 * Patients write message bodies and (through inbound SMS) their own names, so
 * any string that came from data can hold terminal control sequences: ESC
 * starts CSI/OSC sequences that retitle the terminal, write the clipboard or
 * clear the screen; C1 controls (U+0080–U+009F) do the same on terminals that
 * honour 8-bit controls; bidi overrides and zero-width characters make text
 * read differently from what it is. Every such character becomes a visible
 * escape (`\x1b`, `\u202e`) instead of reaching the terminal. The CLI's own
 * colour codes are added after this, so they stay.
 *
 * `--json` output is not passed through here: JSON escapes controls itself.
 * `wellFormedJson` only makes sure a JSON document is one every reader
 * accepts (a lone surrogate becomes U+FFFD).
 */

// C0 (except the ones a caller keeps), DEL, C1, Arabic letter mark, zero-width
// space/joiners, LRM/RLM, line/paragraph separators, bidi embeddings/overrides/
// isolates, word joiner and invisible operators, BOM/zero-width no-break
// space, interlinear annotation controls, and unpaired surrogates.
const UNSAFE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const TAB_NEWLINE = /[\t\n\r]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * One line of text: every control and invisible formatting character becomes
 * a visible escape. With `keepLines`, newlines and tabs stay (a multi-line
 * message); a lone CR is escaped either way, since it rewrites the line.
 */
export function terminalSafe(text: string, options: { keepLines?: boolean } = {}): string {
  const escaped = text.replace(UNSAFE, visible);
  if (options.keepLines) return escaped.replace(/\r(?!\n)/g, '\\r');
  return escaped.replace(TAB_NEWLINE, visible);
}

/**
 * JSON text with every `\uD800`–`\uDFFF` escape that is not half of a pair
 * replaced by `\ufffd`. JSON.stringify writes a lone surrogate as such an
 * escape, and a service may send one; jq 1.6 stops at it ("Invalid
 * \uXXXX\uXXXX surrogate pair escape"), other readers fail or guess.
 */
export function wellFormedJson(json: string): string {
  if (!/\\u[dD][89a-fA-F]/.test(json)) return json;
  let out = '';
  let copied = 0;
  for (let i = json.indexOf('\\'); i !== -1 && i < json.length; i = json.indexOf('\\', i)) {
    if (json[i + 1] !== 'u') {
      i += 2; // any other escape, including an escaped backslash
      continue;
    }
    const unit = parseInt(json.slice(i + 2, i + 6), 16);
    if (unit >= 0xd800 && unit <= 0xdbff && json[i + 6] === '\\' && json[i + 7] === 'u') {
      const low = parseInt(json.slice(i + 8, i + 12), 16);
      if (low >= 0xdc00 && low <= 0xdfff) {
        i += 12;
        continue;
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) {
      out += json.slice(copied, i) + '\\ufffd';
      copied = i + 6;
    }
    i += 6;
  }
  return copied === 0 ? json : out + json.slice(copied);
}

/** JSON.stringify whose text every JSON reader accepts (see wellFormedJson). */
export function stringifyWellFormed(value: unknown, space?: number): string {
  return wellFormedJson(JSON.stringify(value, null, space));
}

/**
 * A value as one table/TSV cell: no tabs or newlines (each run becomes a
 * space), no control or invisible formatting characters (visible escapes,
 * terminal-text.ts), empty for null.
 */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return terminalSafe(text.replace(/[\t\r\n]+/g, ' '));
}
