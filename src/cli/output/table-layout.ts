/**
 * Which columns a terminal table shows and how wide each is, so that it fits
 * the terminal (product.md §2: low-value columns shrink or drop first; --wide
 * shows every column). Decided once per table, from its first rows, so rows
 * printed in later chunks line up under the same header. Tables are aligned
 * with spaces, no box rules (as gh, kubectl and docker print them): a column
 * is its content plus a two-space gutter, the last one without.
 */

export interface LayoutColumn {
  header: string;
  /** Takes what width is left (a message body); never squeezed below FLEX_MIN unless nothing else can give. */
  flex?: boolean;
  /** Preferred width (content only). */
  width?: number;
  /** Dropped when the table does not fit: the highest rank goes first. Columns without one always stay. */
  drop?: number;
  /** Never shrunk (an id: a cut one is useless to copy). */
  fixed?: boolean;
  /** Nothing in it: left out, and not counted as hidden to fit. */
  empty?: boolean;
}

export interface TableLayout {
  /** Indexes of the columns shown, in their order. */
  shown: number[];
  /** Content width of each shown column, parallel to `shown`. */
  widths: number[];
  /** Headers of the columns left out to fit. */
  dropped: string[];
  /** Their indexes. */
  droppedIndexes: number[];
}

/** Space between two columns. */
export const GUTTER = 2;
/** Widest a non-flex column grows on its own. */
const NATURAL_MAX = 40;
/** A flexible column (a body) keeps at least this much, so it is still readable. */
export const FLEX_MIN = 20;
/** A shrunk column keeps at least this much, or its header, whichever is wider. */
const SHRINK_MIN = 8;
/**
 * How far a long value (a name, an email) is cut before a column is dropped to make room: one
 * long name must not take a key column (a patient's phone, a campaign's status) from every row.
 */
const CUT_BEFORE_DROP = 20;

/** `cellWidth(text)` measures in terminal columns (text-width.ts). */
export function layoutTable(columns: LayoutColumn[], cells: string[][], terminalWidth: number, wide: boolean, cellWidth: (text: string) => number): TableLayout {
  const natural = columns.map((c, i) => {
    const content = Math.max(cellWidth(c.header), ...cells.map((row) => cellWidth(row[i] ?? '')));
    if (wide || c.fixed || c.flex) return content;
    return Math.min(c.width ?? NATURAL_MAX, content);
  });
  const flexIndex = columns.findIndex((c) => c.flex);
  let shown = columns.map((_, i) => i).filter((i) => !columns[i]!.empty);

  if (wide) {
    // Every column at its full width, the body too (it was cut at the window's edge, so --wide
    // showed less of a message than the default table): last, it runs to its end in every row,
    // later pages' longer ones included; elsewhere it takes the width of the longest seen.
    const widths = shown.map((i) => natural[i]!);
    if (shown.at(-1) === flexIndex) widths[widths.length - 1] = Number.POSITIVE_INFINITY;
    return { shown, widths, dropped: [], droppedIndexes: [] };
  }

  // A body keeps a third of the window (at least FLEX_MIN) before other columns may stay: text is what a person reads.
  const flexTarget = Math.max(FLEX_MIN, Math.floor(terminalWidth / 3));
  const flexNeed = (set: number[]) => (set.includes(flexIndex) ? Math.min(flexTarget, natural[flexIndex]!) : 0);
  const width = (set: number[]) => set.reduce((sum, i) => (i === flexIndex ? sum : sum + natural[i]!), 0) + flexNeed(set) + GUTTER * (set.length - 1);
  // What a column may be cut to before another is dropped for it.
  const cutTo = columns.map((c, i) => (c.fixed || c.flex ? natural[i]! : Math.min(natural[i]!, Math.max(CUT_BEFORE_DROP, cellWidth(c.header)))));
  const cutWidth = (set: number[]) => set.reduce((sum, i) => (i === flexIndex ? sum : sum + cutTo[i]!), 0) + flexNeed(set) + GUTTER * (set.length - 1);

  // 1. Drop low-value columns, lowest value first, while the table is too wide even with long values cut.
  const droppable = columns
    .map((c, i) => ({ i, rank: c.drop }))
    .filter((d): d is { i: number; rank: number } => d.rank !== undefined)
    .sort((a, b) => b.rank - a.rank);
  for (const d of droppable) {
    if (cutWidth(shown) <= terminalWidth) break;
    shown = shown.filter((i) => i !== d.i);
  }

  // 2. Shrink what is left, the widest first, down to its header.
  const widths = new Map(shown.map((i) => [i, natural[i]!]));
  let excess = width(shown) - terminalWidth;
  while (excess > 0) {
    const candidates = shown.filter((i) => i !== flexIndex && !columns[i]!.fixed && widths.get(i)! > floor(columns[i]!, natural[i]!));
    if (candidates.length === 0) break;
    const widest = candidates.reduce((a, b) => (widths.get(b)! > widths.get(a)! ? b : a));
    widths.set(widest, widths.get(widest)! - 1);
    excess--;
  }

  // 3. The flexible column takes the rest (at least a few characters, even on a tiny terminal). Last,
  // it takes all the rest, whatever its first rows needed: later rows (`messages list --follow`,
  // the next pages) may be longer, and the last column is not padded, so room costs nothing.
  if (flexIndex >= 0 && shown.includes(flexIndex)) {
    const others = shown.reduce((sum, i) => (i === flexIndex ? sum : sum + widths.get(i)!), 0) + GUTTER * (shown.length - 1);
    const room = shown.at(-1) === flexIndex ? terminalWidth - others : Math.min(natural[flexIndex]!, terminalWidth - others);
    widths.set(flexIndex, Math.max(Math.min(natural[flexIndex]!, 4), room));
  }
  const droppedIndexes = columns.map((_, i) => i).filter((i) => !shown.includes(i) && !columns[i]!.empty);
  return {
    shown,
    widths: shown.map((i) => widths.get(i)!),
    dropped: droppedIndexes.map((i) => columns[i]!.header),
    droppedIndexes,
  };
}

function floor(c: LayoutColumn, natural: number): number {
  return Math.min(natural, Math.max(SHRINK_MIN, c.header.length));
}
