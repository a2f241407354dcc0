import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/start.js';
import { importTable } from '../../src/sandbox/domain/imports.js';
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/csv/${name}`, import.meta.url));

let sandbox: RunningSandbox;
beforeEach(async () => {
  // A fresh world per test: the same file imported twice into one sandbox would be replayed.
  sandbox = await startSandbox({ rateLimit: 0, timeScale: 0 });
  sandbox.testing.recordRequests();
});
afterEach(async () => sandbox.close());

const orgPatients = () => sandbox.sb.db.patients.filter((p) => p.orgId === sandbox.credentials.organization_id && !p.deleted_at);
const run = (args: string[]) => msgctl(args, { env: sandboxEnv(sandbox) });

/** Each outcome as [row, outcome, matched_by, "column:code" of each error]. */
function compact(lines: any[]) {
  return lines.map((o) => [o.row, o.outcome, o.matched_by, o.errors.map((e: any) => `${e.column ?? ''}:${e.code}`)]);
}

describe('imports create --wait', () => {
  it('reports every row of the messy roster: created, invalid locally (a repeated MRN with other details included); exit 10', async () => {
    const before = orgPatients().length;
    const r = await run(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--wait', '--json']);
    expect(r.exitCode).toBe(10);
    const lines = jsonLines(r.stdout);
    expect(compact(lines)).toEqual([
      [2, 'created', null, []],
      [3, 'created', null, []],
      [5, 'created', null, []],
      [6, 'created', null, []],
      [7, 'invalid', null, ['DOB:invalid']],
      [8, 'invalid', null, ['Mobile Phone:invalid']],
      [9, 'invalid', null, ['Mobile Phone:required']],
      [11, 'created', null, []],
      [12, 'invalid', null, ['MRN:duplicate']],
      [13, 'created', null, []],
      [14, 'invalid', null, ['Email:invalid']],
      [15, 'created', null, []],
      [16, 'invalid', null, ['Last Name:required', 'Mobile Phone:invalid']],
    ]);
    // Row 12 repeats row 11's MRN with another phone: the service would match row 11's patient and drop
    // that phone, so it is refused locally and named, never silently merged.
    const byRow = new Map(lines.map((o) => [o.row, o]));
    expect(byRow.get(12).errors[0].message).toBe("repeats row 11's MRN with other details, which the service would drop");
    expect(byRow.get(12).import_id).toBeNull();
    expect(byRow.get(7).errors[0]).toEqual({ path: '/date_of_birth', code: 'invalid', column: 'DOB', message: 'not a real calendar date' });
    expect(byRow.get(2).import_id).toMatch(/^imp_/);
    expect(byRow.get(7).import_id).toBeNull();

    expect(orgPatients().length).toBe(before + 7);
    const carla = sandbox.sb.db.patients.get(byRow.get(5).patient_id)!;
    expect(carla).toMatchObject({ first_name: 'Carla', phone: '+15555550103', date_of_birth: '1982-06-23', mrn: 'MRN-1003' });
    expect(r.stderr).toContain('invalid row 7, DOB: not a real calendar date');
    expect(r.stderr).toContain("invalid row 12, MRN: repeats row 11's MRN with other details, which the service would drop");
    expect(r.stderr).toContain('13 rows: 7 valid, 6 invalid; 7 created, 0 matched, 0 failed (1 import).');
  });

  it('matches seeded patients by MRN, phone and email, and reports a row the service refuses', async () => {
    const before = orgPatients().length;
    const seeded = (mrn: string) => sandbox.sb.db.patients.find((p) => p.mrn === mrn)!.id;
    const r = await run(['imports', 'create', fixture('roster-existing.csv'), '--month-first', '--wait', '--json']);
    expect(r.exitCode).toBe(10);
    const lines = jsonLines(r.stdout);
    expect(compact(lines)).toEqual([
      [2, 'matched', 'mrn', []],
      [3, 'matched', 'phone', []],
      [4, 'matched', 'email', []],
      [5, 'created', null, []],
      [6, 'created', null, []],
      [7, 'matched', 'phone', []],
      [8, 'invalid', null, ['Birthday:invalid']],
      [9, 'failed', null, ['Patient Last Name:too_long']],
    ]);
    expect(lines.slice(0, 4).map((o) => o.patient_id)).toEqual([seeded('A-1001'), seeded('A-1002'), seeded('A-4001'), expect.any(String)]);
    expect(lines[5].patient_id).toBe(seeded('A-2001'));
    expect(lines[4].patient_id).not.toBe(lines[3].patient_id);
    expect(sandbox.sb.db.patients.get(seeded('A-1001'))!.email).toBe('ada@example.com');
    expect(orgPatients().length).toBe(before + 2);
    expect(r.stderr).toContain('8 rows: 7 valid, 1 invalid; 2 created, 4 matched, 1 failed');

    const dayFirst = await run(['imports', 'create', fixture('roster-existing.csv'), '--wait', '--json', '--day-first']);
    expect(compact(jsonLines(dayFirst.stdout))[6]).toEqual([8, 'created', null, []]);
  });

  it('reads semicolon and tab files with their own aliases', async () => {
    const semicolon = await run(['imports', 'create', fixture('roster-semicolon.csv'), '--month-first', '--wait', '--json']);
    expect(semicolon.exitCode).toBe(10);
    expect(compact(jsonLines(semicolon.stdout))).toEqual([
      [2, 'created', null, []],
      [3, 'created', null, []],
      [4, 'created', null, []],
      [5, 'invalid', null, ['Birth Date:invalid']],
      [6, 'invalid', null, ['E-mail:invalid']],
    ]);
    const anne = jsonLines(semicolon.stdout)[2];
    expect(sandbox.sb.db.patients.get(anne.patient_id)).toMatchObject({ first_name: 'Anne; Marie', email: expect.any(String), phone: null });

    const tab = await run(['imports', 'create', fixture('roster-tab.tsv'), '--month-first', '--wait', '--json']);
    expect(tab.exitCode).toBe(10);
    expect(compact(jsonLines(tab.stdout))).toEqual([
      [2, 'created', null, []],
      [3, 'created', null, []],
      [4, 'invalid', null, [':column_count', 'Phone Number:required']],
      [6, 'created', null, []],
    ]);
  });

  it('exits 0 when every row is created or matched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-import-'));
    const file = join(dir, 'ok.csv');
    writeFileSync(file, 'first,last,phone\nAda,Lovelace,555-555-0123\nBo,Chen,555-555-0177\n');
    const r = await run(['imports', 'create', file, '--wait']);
    expect(r.exitCode).toBe(0);
    // Piped stdout: tab-separated rows.
    expect(r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').slice(0, 2))).toEqual([['2', 'matched'], ['3', 'created']]);
  });

  it('splits a file into chunks, one import each, keeping row order and finding repeated MRNs across chunks', async () => {
    const r = await run(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--wait', '--json', '--chunk-size', '2']);
    expect(r.exitCode).toBe(10);
    const lines = jsonLines(r.stdout);
    expect(lines.map((o) => o.row)).toEqual([2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16]);
    // Rows 11 and 12 (same MRN, another phone) fall in different chunks: row 12 is still flagged.
    expect(lines[8]).toMatchObject({ row: 12, outcome: 'invalid', errors: [{ code: 'duplicate', column: 'MRN' }] });
    // Seven chunks of two rows; rows 7–8 and row 16 are all invalid, so five imports.
    expect(new Set(lines.map((o) => o.import_id).filter(Boolean)).size).toBe(5);
    expect(importTable(sandbox.sb.store).size).toBe(5);
  });
});

describe('imports create without --wait, and imports get', () => {
  it('prints the created imports, then get --wait follows one to its results', async () => {
    const r = await run(['imports', 'create', fixture('roster-semicolon.csv'), '--month-first', '--json']);
    expect(r.exitCode).toBe(10); // two rows were invalid and not sent
    const [created, ...rest] = jsonLines(r.stdout);
    expect(rest).toEqual([]);
    expect(created).toMatchObject({ id: expect.stringMatching(/^imp_/), status: 'running', rows: 3, results: null });
    expect(r.stderr).toContain(`Follow with: msgctl imports get ${created.id} --wait`);

    const got = await run(['imports', 'get', created.id, '--wait', '--json']);
    expect(got.exitCode).toBe(0);
    const [finished] = jsonLines(got.stdout);
    expect(finished).toMatchObject({ id: created.id, status: 'completed', rows: 3, created: 3, matched: 0, failed: 0 });
    expect(finished.results.map((o: any) => [o.row, o.outcome])).toEqual([[2, 'created'], [3, 'created'], [4, 'created']]);
  });

  it('get --wait on a terminal: the bar starts at the real row count and moves, no made-up "0/1 rows"', async () => {
    // A slow service (10 ms a row): 120 rows take a few polls.
    const slow = await startSandbox({ rateLimit: 0, timeScale: 1 });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'msgctl-import-'));
      const file = join(dir, 'slow.csv');
      const rows = Array.from({ length: 120 }, (_, i) => `Pat${i},Slow,555-555-${String(1000 + i).slice(-4)}`);
      writeFileSync(file, ['First Name,Last Name,Phone', ...rows].join('\n') + '\n');
      const created = await msgctl(['imports', 'create', file, '--json'], { env: sandboxEnv(slow) });
      const [imp] = jsonLines(created.stdout);
      const r = await msgctl(['imports', 'get', imp.id, '--wait'], { env: { ...sandboxEnv(slow), NO_COLOR: undefined }, tty: true, timeout: 20_000 });
      expect(r.exitCode, r.stderr).toBe(0);
      const shown = [...r.stderr.matchAll(/(\d+)\/(\d+) rows/g)].map((m) => [Number(m[1]), Number(m[2])]);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every(([, total]) => total === 120)).toBe(true);
      expect(r.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/^status:\s+completed$/m);
    } finally {
      await slow.close();
    }
  });

  it('get of an unknown import exits 4', async () => {
    const r = await run(['imports', 'get', 'imp_000000000000000000000000']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('not_found');
  });
});

describe('refused before anything is sent', () => {
  it.each([
    ['not-a-csv.bin', /not a CSV file \(it contains binary data\)/],
    ['missing-columns.csv', /the CSV has no last name column[\s\S]*Columns in the file: "First Name", "DOB", "Phone", "Email"/],
  ])('%s exits 2', async (name, message) => {
    const r = await run(['imports', 'create', fixture(name), '--wait']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(sandbox.testing.requests()).toEqual([]);
  });

  it('refuses an unknown --region and an oversized --chunk-size', async () => {
    const region = await run(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--region', 'ZZ']);
    expect(region.exitCode).toBe(2);
    expect(region.stderr).toContain('--region "ZZ"');
    const chunk = await run(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--chunk-size', '5001']);
    expect(chunk.exitCode).toBe(2);
    expect(sandbox.testing.requests()).toEqual([]);
  });

  it('dry run: every row on stdout, exit 2 when some are invalid, nothing sent', async () => {
    const r = await run(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--dry-run', '--json']);
    expect(r.exitCode).toBe(2);
    const lines = jsonLines(r.stdout);
    expect(lines.filter((o) => o.outcome === 'valid').map((o) => o.row)).toEqual([2, 3, 5, 6, 11, 13, 15]);
    expect(lines.filter((o) => o.outcome === 'invalid').map((o) => o.row)).toEqual([7, 8, 9, 12, 14, 16]);
    expect(lines[0].patient).toEqual({
      first_name: 'Ava', last_name: 'Marsh', date_of_birth: '1985-12-10', phone: '+15555550101', email: 'ava.marsh@example.com', mrn: 'MRN-1001',
    });
    expect(r.stderr).toContain("invalid row 12, MRN: repeats row 11's MRN with other details, which the service would drop");
    expect(r.stderr).toContain('13 rows: 7 valid, 6 invalid. Dry run: nothing was sent.');
    expect(sandbox.testing.requests()).toEqual([]);
  });

  it('dry run on a terminal: the invalid rows with every reason whole at 80 columns, then the summary; --all-rows lists every row', async () => {
    const r = await msgctl(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--dry-run'], { env: sandboxEnv(sandbox), tty: true, columns: 80 });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toMatch(/^row 7 +invalid +DOB: not a real calendar date$/m);
    expect(r.stdout).not.toMatch(/valid +Ava Marsh/); // valid rows are counted, not listed
    expect(r.stdout).not.toContain('…');
    expect(Math.max(...r.stdout.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(80);
    expect(r.stderr).toMatch(/rows: \d+ valid, \d+ invalid\. Dry run: nothing was sent\./);
    const all = await msgctl(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--dry-run', '--all-rows'], { env: sandboxEnv(sandbox), tty: true, columns: 120 });
    expect(all.stdout).toMatch(/^ROW +OUTCOME +DETAILS$/m);
    expect(all.stdout).toMatch(/^2 +valid +Ava Marsh, born 1985-12-10, \+15555550101, ava\.marsh@example\.com, MRN MRN-1001$/m);
    const piped = await run(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--dry-run']);
    expect(piped.stdout.split('\n')[0]).toBe('2\tvalid\tAva Marsh, born 1985-12-10, +15555550101, ava.marsh@example.com, MRN MRN-1001');
    expect(piped.stdout).toContain('7\tinvalid\tDOB: not a real calendar date\n');
    expect(piped.stderr).toContain('invalid row 7, DOB: not a real calendar date');
  });

  it('dry run of a clean file exits 0; --map changes which rows are valid', async () => {
    const clean = await run(['imports', 'create', fixture('roster-existing.csv'), '--dry-run', '--day-first']);
    expect(clean.exitCode).toBe(0);
    const mapped = await run(['imports', 'create', fixture('roster-messy.csv'), '--month-first', '--dry-run', '--json', '--map', 'Email=ignore']);
    const row13 = jsonLines(mapped.stdout).find((o) => o.row === 13);
    expect(row13).toMatchObject({ outcome: 'invalid', errors: [{ column: 'Mobile Phone', code: 'required' }] });
    expect(sandbox.testing.requests()).toEqual([]);
  });

  it('a file whose rows are all invalid sends nothing and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-import-'));
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'first,last,phone\nAda,,555\n');
    const r = await run(['imports', 'create', file, '--wait']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('No valid rows: nothing was sent.');
    expect(sandbox.testing.requests()).toEqual([]);
  });
});
