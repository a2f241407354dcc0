// The pieces that keep `imports create` off the JS heap (body.ts, mrn-table.ts,
// results.ts) must behave exactly like the plain structures they replace.
import { describe, expect, it } from 'vitest';
import { MrnTable } from '../../src/cli/imports/mrn-table.js';
import { importFromBody, inRowOrder } from '../../src/cli/imports/results.js';
import { mergeByRow, serviceOutcome, type RowOutcome } from '../../src/cli/imports/outcomes.js';
import type { ImportRowOutcome } from '../../src/contract/api.js';

const wrong = (problem: string) => new Error(`wrong outcome: ${problem}`);

describe('MrnTable', () => {
  it('answers like a Map of first sightings, through growth and rehashing, in any script', () => {
    const table = new MrnTable();
    const map = new Map<string, { row: number; details: number }>();
    // Repeats of each kind; ~100 KB of long MRNs, so the byte store grows too; ~6,900 distinct, so entries span two pages.
    const mrns = Array.from({ length: 20000 }, (_, i) =>
      i % 3 === 0 ? `MRN-${i % 5000}` : i % 3 === 1 ? `Zoë-${i % 1000}-👩‍⚕️` : String(i % 900).padEnd(120, 'x'));
    const got: unknown[] = [];
    const expected: unknown[] = [];
    for (const [row, mrn] of mrns.entries()) {
      const details = (row * 2654435761) >>> 0;
      expected.push(map.get(mrn) ?? null);
      if (!map.has(mrn)) map.set(mrn, { row, details });
      got.push(table.firstSeen(mrn, row, details));
    }
    expect(got).toEqual(expected);
    expect(table.size).toBe(map.size);
    expect(table.size).toBeGreaterThan(4096);
  });

  it('tells apart MRNs that differ only in case, spacing or a prefix', () => {
    const table = new MrnTable();
    for (const [i, mrn] of ['a', 'A', 'a ', 'ab', 'b'].entries()) expect(table.firstSeen(mrn, i, 0)).toBeNull();
    expect(table.firstSeen('ab', 9, 0)).toEqual({ row: 3, details: 0 });
  });

  it('compares the MRNs themselves, not only their hashes', () => {
    // Known FNV-1a (32-bit) collisions: same hash, different MRNs.
    const table = new MrnTable();
    expect(table.firstSeen('costarring', 2, 0)).toBeNull();
    expect(table.firstSeen('liquid', 3, 0)).toBeNull();
    expect(table.firstSeen('liquid', 4, 0)).toEqual({ row: 3, details: 0 });
  });
});

describe('import results', () => {
  const outcome = (row: number, extra: Partial<ImportRowOutcome> = {}): ImportRowOutcome =>
    ({ row, outcome: 'created', patient_id: `p${row}`, matched_by: null, errors: [], ...extra });
  const local = (row: number): RowOutcome => ({ row, outcome: 'invalid', patient_id: null, matched_by: null, errors: [], import_id: null });
  const columns = { last_name: 'Last' };

  function body(results: ImportRowOutcome[] | null, pretty = false): Buffer {
    const value = { id: 'imp_1', status: results ? 'completed' : 'running', rows: 9, created: 1, matched: 0, failed: 0, results, created_at: 't' };
    return Buffer.from(JSON.stringify(value, null, pretty ? 2 : undefined));
  }

  it('leave a finished import\'s results unparsed, and parse the rest', () => {
    const results = [outcome(2), outcome(3, { outcome: 'failed', patient_id: null, errors: [{ path: '/last_name', code: 'too_long', message: 'm "}]' }] })];
    for (const pretty of [false, true]) {
      const { current, results: lazy } = importFromBody(body(results, pretty), 'application/json', wrong);
      expect(current).toEqual({ id: 'imp_1', status: 'completed', rows: 9, created: 1, matched: 0, failed: 0, results: null, created_at: 't' });
      expect(Array.from({ length: lazy!.length }, (_, i) => lazy!.at(i))).toEqual(results);
    }
  });

  it('parse a running import (results null) or an unusual body the ordinary way', () => {
    expect(importFromBody(body(null), 'application/json', wrong)).toMatchObject({ current: { status: 'running', results: null }, results: null });
    const withBom = Buffer.concat([Buffer.from('\ufeff'), body([outcome(2)])]);
    const { current, results } = importFromBody(withBom, 'application/json', wrong);
    expect(current.status).toBe('completed');
    expect(results!.at(0)).toEqual(outcome(2));
  });

  it('an outcome of the wrong shape is the caller\'s error when it is parsed, naming the field', () => {
    const bad = [outcome(2), { ...outcome(3), errors: [{ path: 7, code: 'x', message: 'm' }] }] as unknown as ImportRowOutcome[];
    const { results } = importFromBody(body(bad), 'application/json', wrong);
    expect(results!.at(0)).toEqual(outcome(2));
    expect(() => results!.at(1)).toThrow('wrong outcome: "results[1].errors[0].path" is a number, not a string');
  });

  it('come out in the order mergeByRow gives, sorted or not, ties included', () => {
    const cases: [number[], ImportRowOutcome[]][] = [
      [[3, 7], [outcome(2), outcome(4), outcome(5), outcome(8)]],
      [[2, 9], [outcome(6), outcome(3), outcome(8, { patient_id: 'first' }), outcome(8, { patient_id: 'second' }), outcome(4)]],
      [[5], [outcome(5), outcome(5, { patient_id: 'again' })]],
      [[4, 6], []],
      [[], [outcome(3), outcome(2)]],
    ];
    for (const [localRows, service] of cases) {
      const locals = localRows.map(local);
      const { results } = importFromBody(body(service), 'application/json', wrong);
      const streamed = [...inRowOrder(locals, results!, (o) => serviceOutcome(o, 'imp_1', columns))];
      expect(streamed).toEqual(mergeByRow(locals, service.map((o) => serviceOutcome(o, 'imp_1', columns))));
    }
  });
});
