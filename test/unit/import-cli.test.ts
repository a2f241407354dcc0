import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkKey, chunkKeyOf, hashedFile, uploadNamespace } from '../../src/cli/imports/keys.js';
import { ImportBody } from '../../src/cli/imports/body.js';
import { chunksOf, checkRow } from '../../src/cli/imports/chunks.js';
import { mergeByRow, serviceOutcome, ImportTally, type RowOutcome } from '../../src/cli/imports/outcomes.js';
import type { CsvRow } from '../../src/cli/csv/read.js';

const TARGET = { baseUrl: 'https://api.example.com/v1/', organizationId: '7f1c0a52-4a5e-4f43-9d7f-0a1b2c3d4e5f' };

const mapping = { columns: { first_name: 'First', last_name: 'Last', phone: 'Phone', mrn: 'MRN' } };
const csvRow = (row: number, record: Record<string, string>, problem?: string): CsvRow => ({
  rowNumber: row - 1, row, line: row, record, ...(problem ? { problem } : {}),
});

describe('chunk keys', () => {
  const ns = uploadNamespace({ sha256: 'a'.repeat(64) }, TARGET);

  it('are the same for the same file, rows and body, so a re-run replays', () => {
    const rows = [{ row: 2, first_name: 'Ada' }];
    expect(chunkKey(ns, 2, 5001, rows)).toBe(chunkKey(uploadNamespace({ sha256: 'a'.repeat(64) }, TARGET), 2, 5001, [{ row: 2, first_name: 'Ada' }]));
    expect(chunkKey(ns, 2, 5001, rows)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('change with the file, the row range, the body, the caller\'s key, the base URL or the organization', () => {
    const x = [{ row: 2, first_name: 'X' }];
    const base = chunkKey(ns, 2, 5001, x);
    const others = [
      chunkKey(uploadNamespace({ sha256: 'b'.repeat(64) }, TARGET), 2, 5001, x),
      chunkKey(ns, 5002, 10001, x),
      chunkKey(ns, 2, 5001, [{ row: 2, first_name: 'Y' }]),
      chunkKey(ns, 2, 5001, [...x, { row: 3, first_name: 'Z' }]),
      chunkKey(uploadNamespace({ callerKey: '6f1d8c2e-3b5a-4e7f-9a0b-1c2d3e4f5a6b' }, TARGET), 2, 5001, x),
      chunkKey(uploadNamespace({ sha256: 'a'.repeat(64) }, { ...TARGET, baseUrl: 'http://127.0.0.1:4010/v1/' }), 2, 5001, x),
      chunkKey(uploadNamespace({ sha256: 'a'.repeat(64) }, { ...TARGET, organizationId: '00000000-0000-4000-8000-000000000001' }), 2, 5001, x),
    ];
    expect(new Set([base, ...others]).size).toBe(8);
  });

  it('hashedFile hashes exactly what was read', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'msgctl-hash-')), 'f.csv');
    writeFileSync(file, 'a,b\n1,2\n');
    const hashed = hashedFile(file);
    expect(() => hashed.sha256()).toThrow(/not read to the end/);
    let text = '';
    for await (const chunk of hashed.stream) text += chunk;
    expect(text).toBe('a,b\n1,2\n');
    // sha256("a,b\n1,2\n")
    const { createHash } = await import('node:crypto');
    expect(hashed.sha256()).toBe(createHash('sha256').update('a,b\n1,2\n').digest('hex'));
  });
});

describe('ImportBody', () => {
  const ns = uploadNamespace({ sha256: 'a'.repeat(64) }, TARGET);
  function written(rows: { row: number; first_name: string; last_name: string }[]) {
    const body = new ImportBody();
    for (const row of rows) body.push(row);
    expect(body.length).toBe(rows.length);
    return body.finish();
  }

  it('writes the bytes JSON.stringify({rows}) would, and the digest chunkKey hashes, across blocks and in any script', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ row: i + 2, first_name: `Zoë ${i} 👩‍⚕️`, last_name: i === 7 ? '€'.repeat(30_000) : `O'Brien "${i}"` }));
    rows.push({ row: 3002, first_name: 'lone \ud800 surrogate', last_name: '\u2028' });
    const { bytes, rowsDigest } = written(rows);
    expect(bytes.length).toBeGreaterThan(128 * 1024); // more than one block, and a row bigger than a block
    expect(bytes.equals(Buffer.from(JSON.stringify({ rows })))).toBe(true);
    expect(chunkKeyOf(ns, 2, 3002, rowsDigest)).toBe(chunkKey(ns, 2, 3002, rows));
  });

  it('writes an empty list when no row was pushed', () => {
    expect(written([]).bytes.toString()).toBe('{"rows":[]}');
  });
});

describe('checkRow', () => {
  it('turns a valid row into an import row with its spreadsheet row number', () => {
    const r = checkRow(csvRow(7, { First: 'Ada', Last: 'L', Phone: '(555) 555-0123', MRN: '' }), mapping, { region: 'US' });
    expect(r).toEqual({ ok: true, body: { row: 7, first_name: 'Ada', last_name: 'L', phone: '+15555550123' } });
  });

  it('reports empty required cells as required, bad ones as invalid, and a short row as a whole', () => {
    const r = checkRow(csvRow(9, { First: '', Last: 'L', Phone: '12', MRN: '' }, 'has 3 values but the header has 4 columns'), mapping, {});
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.outcome).toMatchObject({ row: 9, outcome: 'invalid', import_id: null, patient_id: null });
    expect(r.outcome.errors.map((e) => [e.path, e.code, e.column])).toEqual([
      ['', 'column_count', null],
      ['/first_name', 'required', 'First'],
      ['/phone', 'invalid', 'Phone'],
    ]);
  });
});

describe('chunksOf', () => {
  async function* rows(n: number) {
    for (let i = 0; i < n; i++) {
      const bad = i % 4 === 3;
      yield csvRow(i + 2, { First: 'P', Last: `L${i}`, Phone: bad ? 'x' : `555-555-${String(100 + i).padStart(4, '0')}`, MRN: `M${i}` });
    }
  }

  it('cuts every `size` data rows, valid and invalid alike, with the row range of each', async () => {
    const chunks = [];
    for await (const c of chunksOf(rows(10), mapping, { size: 4 })) chunks.push(c);
    expect(chunks.map((c) => [c.index, c.firstRow, c.lastRow, c.valid.length, c.invalid.map((o) => o.row)])).toEqual([
      [1, 2, 5, 3, [5]],
      [2, 6, 9, 3, [9]],
      [3, 10, 11, 2, []],
    ]);
  });
});

describe('outcomes', () => {
  it('merge local and service outcomes in row order and trace service errors to columns', () => {
    const local: RowOutcome = { row: 3, outcome: 'invalid', patient_id: null, matched_by: null, errors: [], import_id: null };
    const service = serviceOutcome(
      { row: 2, outcome: 'failed', patient_id: null, matched_by: null, errors: [{ path: '/last_name', code: 'too_long', message: 'm' }] },
      'imp_1',
      mapping.columns,
    );
    const merged = mergeByRow([local], [service]);
    expect(merged.map((o) => o.row)).toEqual([2, 3]);
    expect(merged[0]!.errors[0]).toEqual({ path: '/last_name', code: 'too_long', message: 'm', column: 'Last' });
  });

  it('summarise the counts', () => {
    const t = new ImportTally();
    Object.assign(t, { dataRows: 13, valid: 8, invalid: 5, imports: 2, replayed: 1 });
    t.addService({ created: 7, matched: 1, failed: 0 });
    expect(t.done).toBe(13);
    expect(t.summary('waited')).toBe('13 rows: 8 valid, 5 invalid; 7 created, 1 matched, 0 failed (2 imports, 1 replayed from an earlier run).');
  });
});

describe('repeated MRNs in one file', () => {
  async function outcomes(records: Record<string, string>[]) {
    const rows = (async function* () {
      for (const [i, record] of records.entries()) yield csvRow(i + 2, record);
    })();
    const result: [number, string][] = [];
    for await (const chunk of chunksOf(rows, mapping, { size: 2 })) {
      for (const v of chunk.valid) result.push([v.row, 'valid']);
      for (const o of chunk.invalid) result.push([o.row, o.errors.map((e) => `${e.column}:${e.code}`).join()]);
    }
    return result.sort((a, b) => a[0] - b[0]);
  }

  it('a repeat with other details is invalid (across chunks too); an identical repeat or another MRN is not', async () => {
    const ada = { First: 'Ada', Last: 'L', Phone: '555-555-0101', MRN: 'M-1' };
    expect(await outcomes([
      ada,
      { ...ada, Phone: '555-555-0102' }, // row 3: same MRN, another phone
      { ...ada }, // row 4: identical to row 2: nothing would be lost
      { ...ada, MRN: 'M-2' }, // row 5: another patient
      { ...ada, First: 'Adah' }, // row 6: same MRN, another name, in the third chunk
      { ...ada, MRN: '' }, // row 7: no MRN, nothing to compare
    ])).toEqual([[2, 'valid'], [3, 'MRN:duplicate'], [4, 'valid'], [5, 'valid'], [6, 'MRN:duplicate'], [7, 'valid']]);
  });
});
