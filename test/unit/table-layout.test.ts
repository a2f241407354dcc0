/**
 * output/table-layout.ts: the body column, when last, takes the whole rest of the window, not
 * only what its first rows needed, so rows printed later under the same header (`messages list
 * --follow`, the next page) are not cut to the first chunk's longest body (16 columns of 45 free).
 */
import { describe, expect, it } from 'vitest';
import { layoutTable } from '../../src/cli/output/table-layout.js';

const width = (text: string) => text.length;

describe('layoutTable', () => {
  it('a last flexible column gets all the room left, whatever its first rows held', () => {
    const columns = [{ header: 'id', fixed: true }, { header: 'name' }, { header: 'body', flex: true }];
    const layout = layoutTable(columns, [['0123456789', 'Ada Lovelace', 'short']], 80, false, width);
    expect(layout.shown).toEqual([0, 1, 2]);
    expect(layout.widths).toEqual([10, 12, 80 - 10 - 12 - 2 * 2]);
  });

  it('a flexible column with columns after it stays at what its rows need', () => {
    const columns = [{ header: 'id', fixed: true }, { header: 'body', flex: true }, { header: 'name' }];
    const layout = layoutTable(columns, [['0123456789', 'short', 'Ada Lovelace']], 80, false, width);
    expect(layout.widths).toEqual([10, 5, 12]);
  });
});
