/**
 * Which columns a terminal table shows and how wide each is, so that it fits
 * the terminal (product.md §2: low-value columns shrink or drop first; --wide
 * shows every column). Decided once per table, from its first rows, so rows
 * printed in later chunks line up under the same header.
 */

export interface LayoutColumn {
  header: string;
  /** Takes what width is left (a message body); never squeezed below FLEX_MIN unless nothing else can give. */
  flex?: boolean;
  /** Preferred width (padding included). */
  width?: number;
  /** Dropped when the table does not fit: the highest rank goes first. Columns without one always stay. */
  drop?: number;
  /** Never shrunk (an id: a cut one is useless to copy). */
  fixed?: boolean;
}

export interface TableLayout {
  /** Indexes of the columns shown, in their order. */
  shown: number[];
  /** Width of each shown column (padding included), parallel to `shown`. */
  widths: number[];
  /** Headers of the columns left out to fit. */
  dropped: string[];
}

/** Widest a non-flex column grows on its own (padding included). */
const NATURAL_MAX = 42;
/** A flexible column (a body) keeps at least 30 characters (plus padding), so it is still readable. */
export const FLEX_MIN = 32;
/** A shrunk column keeps at least this much (padding included), or its header, whichever is wider. */
const SHRINK_MIN = 10;

export function layoutTable(columns: LayoutColumn[], cells: string[][], terminalWidth: number, wide: boolean): TableLayout {
  const natural = columns.map((c, i) => {
    const content = Math.max(c.header.length, ...cells.map((row) => [...(row[i] ?? '')].length)) + 2;
    if (wide) return c.flex ? content : Math.max(c.width ?? 0, content);
    return c.width ?? Math.min(NATURAL_MAX, content);
  });
  const flexIndex = columns.findIndex((c) => c.flex);
  let shown = columns.map((_, i) => i);

  if (wide) {
    const widths = shown.map((i) => natural[i]!);
    // Every column at its full width; the body still ends at the terminal's edge (or FLEX_MIN past it).
    if (flexIndex >= 0) widths[flexIndex] = Math.max(FLEX_MIN, terminalWidth - total(widths, flexIndex));
    return { shown, widths, dropped: [] };
  }

  const flexNeed = (set: number[]) => (set.includes(flexIndex) ? Math.min(FLEX_MIN, natural[flexIndex]!) : 0);
  const width = (set: number[]) => set.reduce((sum, i) => (i === flexIndex ? sum : sum + natural[i]!), 0) + flexNeed(set) + set.length + 1;

  // 1. Drop low-value columns, lowest value first, while the table is too wide.
  const droppable = columns
    .map((c, i) => ({ i, rank: c.drop }))
    .filter((d): d is { i: number; rank: number } => d.rank !== undefined)
    .sort((a, b) => b.rank - a.rank);
  for (const d of droppable) {
    if (width(shown) <= terminalWidth) break;
    shown = shown.filter((i) => i !== d.i);
  }

  // 2. Shrink what is left, the widest first, down to its header.
  const widths = new Map(shown.map((i) => [i, natural[i]!]));
  let excess = width(shown) - terminalWidth;
  while (excess > 0) {
    const candidates = shown.filter((i) => i !== flexIndex && !columns[i]!.fixed && widths.get(i)! > floor(columns[i]!));
    if (candidates.length === 0) break;
    const widest = candidates.reduce((a, b) => (widths.get(b)! > widths.get(a)! ? b : a));
    widths.set(widest, widths.get(widest)! - 1);
    excess--;
  }

  // 3. The flexible column takes the rest.
  if (flexIndex >= 0 && shown.includes(flexIndex)) {
    const others = shown.reduce((sum, i) => (i === flexIndex ? sum : sum + widths.get(i)!), 0) + shown.length + 1;
    widths.set(flexIndex, Math.max(Math.min(FLEX_MIN, natural[flexIndex]!), 12, terminalWidth - others));
  }
  return {
    shown,
    widths: shown.map((i) => widths.get(i)!),
    dropped: columns.filter((_, i) => !shown.includes(i)).map((c) => c.header),
  };
}

function floor(c: LayoutColumn): number {
  return Math.max(SHRINK_MIN, c.header.length + 2);
}

/** Width of a row of these columns, borders included, leaving one out. */
function total(widths: number[], except: number): number {
  return widths.reduce((sum, w, i) => (i === except ? sum : sum + w), 0) + widths.length + 1;
}
