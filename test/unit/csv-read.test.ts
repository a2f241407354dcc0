import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openCsv, readCsvRecords, type CsvRow } from '../../src/cli/csv/read.js';
import { detectDelimiter } from '../../src/cli/csv/source.js';
import { UsageError } from '../../src/cli/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'msgctl-csv-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stream(content: string | Buffer, chunkSize = Infinity): Readable {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += Math.min(chunkSize, bytes.length)) chunks.push(bytes.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

async function readAll(content: string | Buffer, options = {}): Promise<{ headers: string[]; rows: CsvRow[] }> {
  const file = await openCsv(stream(content), options);
  const rows: CsvRow[] = [];
  for await (const row of file.rows) rows.push(row);
  return { headers: file.headers, rows };
}

async function failure(content: string | Buffer, options = {}): Promise<UsageError> {
  try {
    await readAll(content, options);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return error as UsageError;
  }
  throw new Error('expected the read to fail');
}

describe('openCsv', () => {
  it('strips a BOM, trims headers and values, and numbers rows', async () => {
    const { headers, rows } = await readAll('\uFEFF First Name , Phone\n Ada ,  555 555 0123 \nGrace,5555550124\n');
    expect(headers).toEqual(['First Name', 'Phone']);
    expect(rows).toEqual([
      { rowNumber: 1, row: 2, line: 2, record: { 'First Name': 'Ada', Phone: '555 555 0123' } },
      { rowNumber: 2, row: 3, line: 3, record: { 'First Name': 'Grace', Phone: '5555550124' } },
    ]);
  });

  it('keeps line breaks inside quoted values and counts rows like a spreadsheet', async () => {
    const text = 'name,notes\na,"line one\nline two\nline three"\nb,plain\n';
    const { rows } = await readAll(text);
    expect(rows.map((r) => [r.record.notes, r.rowNumber, r.row, r.line])).toEqual([
      ['line one\nline two\nline three', 1, 2, 2],
      ['plain', 2, 3, 5],
    ]);
  });

  it('counts CRLF line breaks inside quotes once', async () => {
    const text = 'name,notes\r\na,"x\r\ny"\r\n\r\nb,z\r\nc,"1\r\n2\r\n3"\r\nd,w';
    const { rows } = await readAll(text);
    expect(rows.map((r) => [r.record.name, r.row, r.line])).toEqual([
      ['a', 2, 2],
      ['b', 4, 5],
      ['c', 5, 6],
      ['d', 6, 9],
    ]);
    expect(rows[0]?.record.notes).toBe('x\r\ny');
  });

  it('skips blank lines and lines of bare delimiters but still counts them as rows', async () => {
    const { rows } = await readAll('a,b\n\n1,2\n , \n,,\n\n3,4\n\n');
    expect(rows.map((r) => [r.record.a, r.rowNumber, r.row])).toEqual([
      ['1', 1, 3],
      ['3', 2, 7],
    ]);
  });

  it.each([
    ['comma', 'a,b,c;d\n1,2,3;4\n', ','],
    ['semicolon', 'a;b;c\n1;2;3\n', ';'],
    ['tab', 'a\tb\tc\n1\t2\t3\n', '\t'],
    ['semicolon despite a quoted comma', '"Last, First";b;c\n1;2;3\n', ';'],
  ])('detects the %s delimiter from the header', async (_name, text, delimiter) => {
    const file = await openCsv(stream(text));
    expect(file.delimiter).toBe(delimiter);
    expect(file.headers).toHaveLength(3);
    file.close();
  });

  it('falls back to a comma for a one-column file', () => {
    expect(detectDelimiter('email\nx@example.com\n')).toBe(',');
  });

  it('uses an explicit delimiter, including by name', async () => {
    expect((await readAll('a,b|c\n1,2|3\n', { delimiter: '|' })).headers).toEqual(['a,b', 'c']);
    expect((await readAll('a\tb,c\n1\t2,3\n', { delimiter: 'tab' })).headers).toEqual(['a', 'b,c']);
    expect((await failure('a,b\n', { delimiter: '::' })).message).toContain('invalid CSV delimiter');
  });

  it('reports rows with too few or too many values instead of throwing', async () => {
    const { rows } = await readAll('a,b,c\n1,2\n1,2,3,4\n1,2,3\n');
    expect(rows[0]).toMatchObject({ record: { a: '1', b: '2', c: '' }, problem: 'has 2 values but the header has 3 columns' });
    expect(rows[1]).toMatchObject({ record: { a: '1', b: '2', c: '3' }, problem: 'has 4 values but the header has 3 columns' });
    expect(rows[2]?.problem).toBeUndefined();
  });

  it('tolerates stray quotes inside unquoted values', async () => {
    const { rows } = await readAll('name,height\nO"Brien,5\'10"\n');
    expect(rows[0]?.record).toEqual({ name: 'O"Brien', height: '5\'10"' });
  });

  it('names unnamed columns and refuses duplicate ones', async () => {
    expect((await readAll('a,,b,\n1,2,3,4\n')).headers).toEqual(['a', '(column 2)', 'b', '(column 4)']);
    expect((await failure('Phone,Email,Phone\n')).message).toContain('more than once: "Phone"');
  });

  it('judges a 100,000-column header in one pass (hostile input, issue 27)', async () => {
    // Checking each name against every other took 20–43 s of CPU for this header; one pass takes
    // milliseconds. CPU time, not wall time, with a bound well above what csv-parse itself takes (~1 s).
    const names = Array.from({ length: 100_000 }, (_, i) => `c${i}`);
    const before = process.cpuUsage();
    const error = await failure([...names, 'c7', 'c8'].join(',') + '\n1\n');
    const cpu = process.cpuUsage(before);
    expect(error.message).toMatch(/more than once: "c7", "c8"$/);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(10_000);
    // Many repeated names are listed by the first few, not all. (The listing is what this part
    // proves, and nine repeats show it: a short header, not the 100,000 columns again, which only
    // cost another parse of the wide header.)
    const repeated = await failure([...names.slice(0, 20), ...names.slice(0, 9)].join(',') + '\n');
    expect(repeated.message).toMatch(/"c0", "c1", "c2", "c3", "c4" and 4 more$/);
  });

  it('gives the same rows when the input arrives one byte at a time', async () => {
    const text = '\uFEFFnom;note\nJosé;"é\nè"\n\nZoë;ok\n';
    const whole = await readAll(text);
    expect(whole.rows.map((r) => [r.record.nom, r.record.note, r.row])).toEqual([
      ['José', 'é\nè', 2],
      ['Zoë', 'ok', 4],
    ]);
    expect(await readAllChunked(text)).toEqual(whole);
  });

  it('reads UTF-16LE text (Excel "Unicode Text")', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\tb\nJosé\t2\n', 'utf16le')]);
    const { headers, rows } = await readAll(utf16);
    expect(headers).toEqual(['a', 'b']);
    expect(rows[0]?.record).toEqual({ a: 'José', b: '2' });
  });
});

async function readAllChunked(text: string): Promise<{ headers: string[]; rows: CsvRow[] }> {
  const file = await openCsv(stream(text, 1));
  const rows: CsvRow[] = [];
  for await (const row of file.rows) rows.push(row);
  return { headers: file.headers, rows };
}

describe('inputs that are not usable CSV', () => {
  it.each([
    ['a PNG header', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]],
    ['ASCII with NULs', [0x61, 0x2c, 0x62, 0x0a, 0x00, 0x00, 0x31, 0x2c, 0x32]],
    ['control characters', [0x01, 0x02, 0x03, 0x04, 0x61, 0x2c, 0x62, 0x0a, 0x05, 0x06]],
  ])('refuses binary data: %s', async (_name, bytes) => {
    expect((await failure(Buffer.from(bytes))).message).toBe('input: not a CSV file (it contains binary data)');
  });

  it('refuses text that is not UTF-8, with a way out', async () => {
    const latin1 = Buffer.from('name\nJos\xe9\n', 'latin1');
    const error = await failure(latin1);
    expect(error.message).toContain('not UTF-8');
    expect(error.hints.join(' ')).toContain('CSV UTF-8');
  });

  it('refuses invalid UTF-8 found after the header', async () => {
    const big = Buffer.concat([Buffer.from(`name\n${'x\n'.repeat(50_000)}`), Buffer.from([0xe9, 0x0a])]);
    expect((await failure(big)).message).toContain('not UTF-8');
  });

  it.each([
    ['an empty file', ''],
    ['whitespace only', ' \n\n \n'],
  ])('refuses %s', async (_name, text) => {
    expect((await failure(text)).message).toContain('empty');
  });

  it('refuses a header of bare delimiters', async () => {
    expect((await failure(',,,\n1,2,3,4\n')).message).toContain('not a header row');
  });

  it('accepts a header with no data rows', async () => {
    expect(await readAll('a,b\n')).toEqual({ headers: ['a', 'b'], rows: [] });
  });

  it('points at the row where an unclosed quote begins', async () => {
    const error = await failure('a,b\n1,2\n3,"never closed\n4,5\n6,7\n');
    expect(error.message).toBe('input: a quoted value starting after line 2 is never closed');
  });

  it('reports text after a closing quote with its line', async () => {
    const error = await failure('a,b\n1,2\n"x"y,2\n', { label: 'roster.csv' });
    expect(error.message).toBe('roster.csv line 3: unexpected text after a closing quote');
  });

  it('reports a missing file by name', async () => {
    await expect(openCsv(join(dir, 'nope.csv'))).rejects.toThrow(/cannot read .*nope\.csv: no such file/i);
    await expect(openCsv(dir)).rejects.toThrow(UsageError);
  });
});

describe('readCsvRecords', () => {
  it('reads a file by path and hands over the header first', async () => {
    const path = join(dir, 'small.csv');
    writeFileSync(path, 'First Name;Last Name\nAda;Lovelace\n');
    const seen: string[] = [];
    for await (const row of readCsvRecords(path, { onHeader: (headers, delimiter) => seen.push(...headers, delimiter) })) {
      seen.push(row.record['Last Name'] ?? '?');
    }
    expect(seen).toEqual(['First Name', 'Last Name', ';', 'Lovelace']);
  });

  it('releases the input when the reader stops early', async () => {
    const input = stream(`a\n${'1\n'.repeat(100_000)}`, 1024);
    let count = 0;
    for await (const _row of readCsvRecords(input)) if (++count === 3) break;
    await new Promise((resolve) => setImmediate(resolve));
    expect(count).toBe(3);
    expect(input.destroyed).toBe(true);
  });

  it('lets a header check refuse the file before any row', async () => {
    const rows = readCsvRecords(stream('a,b\n1,2\n'), {
      onHeader: () => {
        throw new UsageError('missing columns');
      },
    });
    await expect(rows.next()).rejects.toThrow('missing columns');
  });
});

describe('refused inputs', () => {
  it('are released, not left open', async () => {
    const endless = function* (first: string, next: string): Generator<Buffer> {
      yield Buffer.from(first);
      for (;;) yield Buffer.from(next);
    };
    const binary = Readable.from(endless('\0\0', '\0'.repeat(1024)));
    await expect(openCsv(binary)).rejects.toThrow(UsageError);
    const text = Readable.from(endless('a,b\n', '1,2\n'));
    await expect(openCsv(text, { delimiter: '::' })).rejects.toThrow(UsageError);
    await new Promise((resolve) => setImmediate(resolve));
    expect(binary.destroyed).toBe(true);
    expect(text.destroyed).toBe(true);
  });
});
