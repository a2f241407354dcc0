import { UsageError } from '../errors.js';

/**
 * Body length as the service counts it: Unicode code points, so an emoji is one
 * character, not two UTF-16 units (documented in docs/sandbox.md).
 */
export function bodyLength(body: string): number {
  let n = 0;
  for (const _ of body) n++;
  return n;
}

/** Cuts a string to `width` columns for a table cell, marking the cut. */
export function truncate(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (width <= 1) return oneLine.slice(0, Math.max(0, width));
  const chars = [...oneLine];
  return chars.length <= width ? oneLine : chars.slice(0, width - 1).join('') + '…';
}

/**
 * Text from the command line as it was given, or a UsageError naming `label`: U+FFFD there is
 * where Node put a byte that was not UTF-8 (`--template "$(cat latin1.txt)"`), and the character
 * that stood there is lost; sent, it reached a patient as "caf\uFFFD" where --template-file refused it.
 */
export function givenText(text: string, label: string): string {
  // Windows passes arguments as UTF-16: nothing is decoded there, so a U+FFFD is one typed.
  if (!text.includes('\uFFFD') || process.platform === 'win32') return text;
  throw new UsageError(`${label} holds U+FFFD (\uFFFD), the mark of a byte that was not UTF-8: the character that stood there is lost, and nothing was sent.`, [
    `Type it again, or save the text as UTF-8 and give the file instead (${label.startsWith('--template') ? '--template-file' : '--body-file'}).`,
  ]);
}
