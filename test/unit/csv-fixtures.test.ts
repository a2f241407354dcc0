import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mapPatientColumns } from '../../src/cli/csv/patient-columns.js';
import { validatePatientRow } from '../../src/cli/csv/patient-rows.js';
import { openCsv } from '../../src/cli/csv/read.js';
import { UsageError } from '../../src/cli/errors.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/csv/${name}`, import.meta.url));
const today = new Date(2025, 0, 1);

/** Each data row as [spreadsheet row, line, outcome], outcome = "valid" or "column: reason; …". */
async function outcomes(name: string): Promise<[number, number, string][]> {
  const csv = await openCsv(fixture(name));
  const mapping = mapPatientColumns(csv.headers);
  const result: [number, number, string][] = [];
  for await (const row of csv.rows) {
    const checked = validatePatientRow(row.record, mapping, { today, dateOrder: 'month-first' });
    const errors = checked.ok ? [] : checked.errors.map((e) => `${e.column}: ${e.reason}`);
    if (row.problem) errors.unshift(row.problem);
    result.push([row.row, row.line, errors.length === 0 ? 'valid' : errors.join('; ')]);
  }
  return result;
}

describe('fixtures match test/fixtures/csv/README.md', () => {
  it('roster-messy.csv', async () => {
    const csv = await openCsv(fixture('roster-messy.csv'));
    expect(mapPatientColumns(csv.headers).ignored).toEqual(['Notes']);
    csv.close();
    expect(await outcomes('roster-messy.csv')).toEqual([
      [2, 2, 'valid'],
      [3, 3, 'valid'],
      [5, 5, 'valid'],
      [6, 7, 'valid'],
      [7, 8, 'DOB: not a real calendar date'],
      [8, 9, 'Mobile Phone: not a usable phone number: too short to be a phone number'],
      [9, 10, 'Mobile Phone: needs a phone or an email; both are empty'],
      [11, 12, 'valid'],
      [12, 13, 'valid'],
      [13, 14, 'valid'],
      [14, 15, 'Email: not an email address'],
      [15, 16, 'valid'],
      [16, 17, 'Last Name: last name is empty; Mobile Phone: not a usable phone number: contains letters'],
    ]);
  });

  it('roster-messy.csv keeps the multi-line note and trims values', async () => {
    const rows = [];
    for await (const row of (await openCsv(fixture('roster-messy.csv'))).rows) rows.push(row.record);
    expect(rows[2]?.Notes).toBe('Allergy: penicillin\nCall before 5pm');
    expect(rows[7]).toMatchObject({ 'First Name': 'Hana', 'Last Name': 'Sato', 'Mobile Phone': '5555550108' });
    expect(rows.filter((r) => r.MRN === 'MRN-1008')).toHaveLength(2);
  });

  it('roster-semicolon.csv', async () => {
    const csv = await openCsv(fixture('roster-semicolon.csv'));
    expect(csv.delimiter).toBe(';');
    csv.close();
    expect(await outcomes('roster-semicolon.csv')).toEqual([
      [2, 2, 'valid'],
      [3, 3, 'valid'],
      [4, 4, 'valid'],
      [5, 5, 'Birth Date: month 13 does not exist'],
      [6, 6, 'E-mail: not an email address'],
    ]);
  });

  it('roster-tab.tsv', async () => {
    expect(await outcomes('roster-tab.tsv')).toEqual([
      [2, 2, 'valid'],
      [3, 3, 'valid'],
      [4, 4, 'has 3 values but the header has 6 columns; Phone Number: needs a phone or an email; both are empty'],
      [6, 6, 'valid'],
    ]);
  });

  it('not-a-csv.bin is refused as binary', async () => {
    await expect(openCsv(fixture('not-a-csv.bin'))).rejects.toThrow(/not a CSV file \(it contains binary data\)/);
  });

  it('missing-columns.csv is refused for its missing last name column', async () => {
    const csv = await openCsv(fixture('missing-columns.csv'));
    csv.close();
    expect(() => mapPatientColumns(csv.headers)).toThrow(UsageError);
    expect(() => mapPatientColumns(csv.headers)).toThrow('the CSV has no last name column');
  });
});
