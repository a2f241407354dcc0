/**
 * How many terminal columns text takes (an emoji or a CJK character takes
 * two, a combining accent none), and cutting text to a width without
 * splitting a character: tables and record views line up by these.
 */
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function displayWidth(text: string): number {
  // Plain ASCII (nearly every id, time and number) needs no lookup.
  return /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text);
}

/** `text` cut to at most `width` columns, ending with … when cut. */
export function fitWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = displayWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + '…';
}

/** `text` padded with spaces to `width` columns. */
export function padWidth(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}

/** A URL with a scheme (https://…, file://…): one word that must stay whole. */
const LINK = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

/**
 * Words of `text` wrapped into lines of at most `width` columns (a word longer than a line is
 * split, but for a link, which goes on a line of its own whole).
 */
export function wrapWidth(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (displayWidth(candidate) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      // A link is never cut: the pieces of one, indented under a label, are no longer a link a
      // person can click or copy (gh leaves them whole too). It gets a line of its own instead, and
      // the terminal folds it if it must, as one line.
      if (LINK.test(word)) continue;
      while (displayWidth(line) > width) {
        let head = '';
        for (const { segment } of graphemes.segment(line)) {
          if (displayWidth(head + segment) > width) break;
          head += segment;
        }
        lines.push(head);
        line = line.slice(head.length);
      }
    }
    lines.push(line);
  }
  return lines;
}
