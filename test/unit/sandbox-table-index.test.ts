import { describe, expect, it } from 'vitest';
import { Table } from '../../src/sandbox/store/table.js';

interface Row {
  id: string;
  phone: string | null;
  gone?: boolean;
}

describe('Table secondary indexes', () => {
  it('finds rows by key and follows inserts, in-place changes, deletes and loads', () => {
    const table = new Table<Row>();
    table.insert({ id: 'a', phone: '+1' });
    const byPhone = table.index('phone', (r) => (r.gone || !r.phone ? null : r.phone));
    table.insert({ id: 'b', phone: '+1' });
    table.insert({ id: 'c', phone: '+2' });
    expect(byPhone('+1').map((r) => r.id)).toEqual(['a', 'b']);

    const b = table.get('b')!;
    b.phone = '+2'; // changed in place, then put, as domain code does
    table.put(b);
    expect(byPhone('+1').map((r) => r.id)).toEqual(['a']);
    expect(byPhone('+2').map((r) => r.id).sort()).toEqual(['b', 'c']);

    const a = table.get('a')!;
    a.gone = true;
    table.put(a);
    expect(byPhone('+1')).toEqual([]);

    table.delete('c');
    expect(byPhone('+2').map((r) => r.id)).toEqual(['b']);

    table.load([{ id: 'x', phone: '+9' }]);
    expect(byPhone('+2')).toEqual([]);
    expect(byPhone('+9').map((r) => r.id)).toEqual(['x']);
  });
});
