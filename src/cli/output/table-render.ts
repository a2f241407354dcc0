/**
 * A terminal table as text: columns aligned with spaces (no box rules), the
 * header in capitals (bold where colour is on), cells cut with … to their
 * column's width and never split inside a character (text-width.ts).
 */
import type { Column, Style } from './types.js';
import { GUTTER, type LayoutColumn, type TableLayout } from './table-layout.js';
import { fitWidth, padWidth } from './text-width.js';
import type { TimeView } from './time-view.js';

/** The layout's view of the columns: headers as printed, ids whole and dropped last. */
export function tableColumns<T>(columns: Column<T>[], times: TimeView): LayoutColumn[] {
  return columns.map((c) => ({
    header: c.time ? `${c.header.toUpperCase()} (${times.label()})` : c.header.toUpperCase(),
    flex: c.flex,
    width: c.width,
    fixed: c.fixed || c.id,
    // Below every other rank: the id is the last column to go.
    drop: c.id ? -1 : c.drop,
  }));
}

/** The header line (`header`) or the rows of `cells`, laid out by `layout`. */
export function renderTable(columns: LayoutColumn[], cells: string[][], layout: TableLayout, style: Style, header: boolean): string {
  const gutter = ' '.repeat(GUTTER);
  const line = (texts: string[], decorate: (s: string) => string) =>
    layout.shown
      .map((i, k) => {
        const width = layout.widths[k]!;
        const text = fitWidth(texts[i] ?? '', width);
        return k === layout.shown.length - 1 ? decorate(text) : decorate(padWidth(text, width));
      })
      .join(gutter)
      .trimEnd() + '\n';
  if (header) return line(columns.map((c) => c.header), style.bold);
  return cells.map((row) => line(row, (s) => s)).join('');
}
