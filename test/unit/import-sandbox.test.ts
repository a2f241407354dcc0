import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxStore } from '../../src/sandbox/store/store.js';
import { Clock } from '../../src/sandbox/clock.js';
import { SandboxContext } from '../../src/sandbox/context.js';
import { seedWorld, type SeededCredentials } from '../../src/sandbox/seed.js';
import {
  advanceImport,
  createImport,
  failImport,
  importView,
  MAX_IMPORT_ROWS,
  parseImportBody,
} from '../../src/sandbox/domain/imports.js';
import { startImportRunner } from '../../src/sandbox/workers/import-runner.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/start.js';
import type { PatientImport } from '../../src/contract/api.js';
import { problemOf } from '../helpers/problems.js';

let sb: SandboxContext;
let creds: SeededCredentials;
beforeEach(() => {
  sb = new SandboxContext(new SandboxStore(), new Clock(1), { port: 0, seed: 1, rateLimit: 0, timeScale: 1 });
  creds = seedWorld(sb);
});

const row = (n: number, fields: Record<string, unknown>) => ({ row: n, first_name: 'Pat', last_name: `Row${n}`, ...fields });


describe('parseImportBody', () => {
  it('keeps the client row numbers and defaults missing ones to the position', () => {
    const rows = parseImportBody({ rows: [row(7, { phone: '+15555550170' }), { first_name: 'A', last_name: 'B', email: 'a@example.com' }] });
    expect(rows.map((r) => r.row)).toEqual([7, 2]);
    expect(rows[0]!.fields).not.toHaveProperty('row');
  });

  it('refuses a missing, empty or oversized rows array with 422 on /rows', () => {
    for (const body of [{}, { rows: 'x' }, { rows: [] }, { rows: Array.from({ length: MAX_IMPORT_ROWS + 1 }, () => ({})) }]) {
      const problem = problemOf(() => parseImportBody(body));
      expect(problem.status).toBe(422);
      expect(problem.code).toBe('validation_failed');
      expect(problem.fieldErrors[0]!.path).toBe('/rows');
    }
  });

  it('accepts exactly the limit', () => {
    expect(parseImportBody({ rows: Array.from({ length: MAX_IMPORT_ROWS }, () => ({})) })).toHaveLength(MAX_IMPORT_ROWS);
  });

  it('points at the row that is not an object or has a bad row number', () => {
    const problem = problemOf(() => parseImportBody({ rows: [row(2, {}), 5, { row: 0 }] }));
    expect(problem.fieldErrors.map((e) => e.path)).toEqual(['/rows/1', '/rows/2/row']);
  });
});

describe('running an import', () => {
  const org = () => creds.organization_id;

  it('creates, matches (existing patient, then an earlier row of the same file) and fails rows, in order', () => {
    const record = createImport(sb, org(), parseImportBody({
      rows: [
        row(2, { phone: '(555) 555-0171', mrn: 'N-1' }),
        row(3, { phone: '+15555550172', mrn: 'A-1001' }),
        row(4, { phone: '+15555550173', mrn: 'N-1' }),
        row(5, { email: 'nope' }),
      ],
    }));
    expect(importView(record)).toMatchObject({ status: 'running', rows: 4, created: 0, matched: 0, failed: 0, results: null });
    expect(record.id).toMatch(/^imp_[0-9a-f]{24}$/);

    expect(advanceImport(sb, record, 2)).toBe(false);
    expect(importView(record)).toMatchObject({ status: 'running', created: 1, matched: 1, results: null });
    expect(advanceImport(sb, record, 2)).toBe(true);

    const view = importView(record);
    expect(view).toMatchObject({ status: 'completed', rows: 4, created: 1, matched: 2, failed: 1 });
    const ada = sb.db.patients.find((p) => p.mrn === 'A-1001' && p.orgId === org())!;
    const first = view.results![0]!;
    expect(view.results).toEqual([
      { row: 2, outcome: 'created', patient_id: expect.any(String), matched_by: null, errors: [] },
      { row: 3, outcome: 'matched', patient_id: ada.id, matched_by: 'mrn', errors: [] },
      { row: 4, outcome: 'matched', patient_id: first.patient_id, matched_by: 'mrn', errors: [] },
      { row: 5, outcome: 'failed', patient_id: null, matched_by: null, errors: [expect.objectContaining({ path: '/email', code: 'invalid' })] },
    ]);
    expect(sb.db.patients.get(first.patient_id!)).toMatchObject({ phone: '+15555550171', mrn: 'N-1' });
  });

  it('stops a batch when its time budget is spent, but always makes progress', () => {
    const record = createImport(sb, org(), parseImportBody({ rows: [row(2, { email: 'a@example.com' }), row(3, { email: 'b@example.com' })] }));
    expect(advanceImport(sb, record, 50, 0)).toBe(false);
    expect(record.results).toHaveLength(1);
    expect(advanceImport(sb, record, 50, 0)).toBe(true);
  });

  it('the runner carries on with imports still running when it starts (a restarted --data sandbox)', async () => {
    const fast = new SandboxContext(sb.store, new Clock(0), sb.options);
    const record = createImport(fast, org(), parseImportBody({ rows: [row(2, { email: 'a@example.com' }), row(3, { email: 'b@example.com' })] }));
    const stop = startImportRunner(fast);
    try {
      for (let i = 0; i < 100 && record.status === 'running'; i++) await new Promise((r) => setTimeout(r, 5));
    } finally {
      stop();
      fast.cancelTimers();
    }
    expect(importView(record)).toMatchObject({ status: 'completed', created: 2 });
  });

  it('a stopped import reports every row it did not reach', () => {
    const record = createImport(sb, org(), parseImportBody({ rows: [row(2, { email: 'a@example.com' }), row(3, { email: 'b@example.com' })] }));
    advanceImport(sb, record, 1);
    failImport(sb, record);
    expect(importView(record)).toMatchObject({ status: 'failed', created: 1, failed: 1 });
    expect(importView(record).results![1]).toMatchObject({ row: 3, outcome: 'failed', errors: [{ code: 'not_processed' }] });
  });
});

describe('the HTTP endpoints', () => {
  let sandbox: RunningSandbox;
  afterEach(async () => sandbox?.close());

  async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${sandbox.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  it('answers 202 running, moves counts in the background and finishes with every outcome', async () => {
    // 300 rows at 10 ms each, time-scale 0.1: about 0.3 s, in six batches.
    sandbox = await startSandbox({ rateLimit: 0, timeScale: 0.1 });
    const key = sandbox.credentials.api_key;
    const rows = Array.from({ length: 300 }, (_, i) => row(i + 2, { email: `p${i}@example.com` }));
    const created = await call('POST', '/patient-imports', key, { rows });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^imp_/), status: 'running', rows: 300, created: 0, matched: 0, failed: 0, results: null,
      created_at: expect.any(String),
    });

    const seen: PatientImport[] = [];
    for (let i = 0; i < 200; i++) {
      const got = await call('GET', `/patient-imports/${created.body.id}`, key);
      expect(got.status).toBe(200);
      seen.push(got.body);
      if (got.body.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ status: 'completed', created: 300, matched: 0, failed: 0 });
    expect(last.results).toHaveLength(300);
    expect(last.results!.map((r) => r.row)).toEqual(rows.map((r) => r.row));
    // Progress was observable: some poll saw a partly processed import.
    expect(seen.some((s) => s.status === 'running' && s.created > 0 && s.created < 300)).toBe(true);
  });

  it('hides one organization\'s imports from another and needs patients.write', async () => {
    sandbox = await startSandbox({ rateLimit: 0, timeScale: 0 });
    const { api_key, other_org_api_key, limited_api_key } = sandbox.credentials;
    const created = await call('POST', '/patient-imports', api_key, { rows: [row(2, { email: 'x@example.com' })] });
    expect((await call('GET', `/patient-imports/${created.body.id}`, other_org_api_key)).status).toBe(404);
    expect((await call('GET', '/patient-imports/imp_nope', api_key)).status).toBe(404);
    const denied = await call('GET', `/patient-imports/${created.body.id}`, limited_api_key);
    expect(denied.body).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect((await call('POST', '/patient-imports', limited_api_key, { rows: [] })).status).toBe(403);
  });
});
