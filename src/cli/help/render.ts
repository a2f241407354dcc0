/**
 * Help text as printed: wrapped to the terminal's width (80 columns when not a
 * terminal), and `docs/NAME.md` pointing at the docs installed with msgctl.
 *
 * Help is written unwrapped (commander renders at UNWRAPPED_WIDTH) and wrapped
 * here, so the text prebuilt in dist/ at build time can be printed by
 * bin/msgctl.js at any width without loading the command tree (this module is
 * built to dist/help-render.js for it, importing nothing). What is wrapped:
 *
 * - items (`  term  description`) of every section (Options:, Commands:, a
 *   help topic's lists), with a hanging indent under the description column
 *   (or, when that leaves too little room, the description on lines of its
 *   own below the term);
 * - unindented prose (the description, notes after the sections).
 *
 * Examples and install lines (sections headed "Examples…" or "Install…"), and
 * indented lines that are not items, are commands to copy: never broken, as gh
 * leaves its examples whole.
 */

/** Wide enough that commander wraps nothing. */
export const UNWRAPPED_WIDTH = 10_000;

/** Below this many columns for a description, it goes under its term instead of beside it. */
const MIN_DESCRIPTION = 20;

const CODE_SECTIONS = /^(Examples|Install)\b/;
const ITEM = /^( +)(\S.*?)( {2,})(\S.*)$/;
const DOC_LINK = /(^|[\s(`'"])docs\/([\w-]+\.md)/g;

export interface HelpLayout {
  /** Columns to wrap at. */
  width: number;
  /** The docs folder installed with msgctl, when there is one: `docs/x.md` becomes a path into it. */
  docsDir?: string;
  /** The path separator of that folder (`\` on Windows). */
  separator?: string;
}

export function renderHelp(text: string, layout: HelpLayout): string {
  const width = Math.max(layout.width, 40);
  const linked = layout.docsDir ? text.replace(DOC_LINK, (_m, before: string, file: string) => `${before}${layout.docsDir}${layout.separator ?? '/'}${file}`) : text;
  let section = '';
  const out: string[] = [];
  for (const line of linked.split('\n')) {
    if (line === '' || !line.startsWith(' ')) section = line.trim();
    if (line.length <= width) out.push(line);
    else if (!CODE_SECTIONS.test(section) && ITEM.test(line)) out.push(...wrapItem(line, width));
    else if (!line.startsWith(' ')) out.push(...wrapWords(line, width, '', ''));
    else out.push(line);
  }
  return out.join('\n');
}

function wrapItem(line: string, width: number): string[] {
  const [, lead, term, gap, description] = ITEM.exec(line)!;
  const column = lead!.length + term!.length + gap!.length;
  if (width - column >= MIN_DESCRIPTION) return wrapWords(description!, width, lead! + term! + gap!, ' '.repeat(column));
  const indent = ' '.repeat(lead!.length + 4);
  return [lead! + term!, ...wrapWords(description!, width, indent, indent)];
}

/** Greedy word wrap; a word longer than the line stays whole. `first` and `rest` start the first and later lines. */
export function wrapWords(text: string, width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let current = first;
  let empty = true;
  for (const word of text.split(/ +/)) {
    if (word === '') continue;
    const candidate = empty ? current + word : `${current} ${word}`;
    if (!empty && candidate.length > width) {
      lines.push(current);
      current = rest + word;
    } else current = candidate;
    empty = false;
  }
  lines.push(current);
  return lines;
}
