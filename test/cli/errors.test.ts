/**
 * Every error of POST /patient-messages (api-spec §4.4) through the CLI:
 * the exit code of product.md §2, the code and request id on stderr, and
 * nothing stored by a refused send.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, jsonLines } from '../helpers/in-process.js';
import { checkRateLimit } from '../../src/sandbox/http/rate-limit.js';
import { ProblemError } from '../../src/sandbox/problem.js';

const sandbox = useSandbox();
const env = (extra: Record<string, string> = {}) => sandboxEnv(sandbox.current, extra);
const db = () => sandbox.current.sb.db;
const patient = (first: string) =>
  db().patients.find((p) => p.first_name === first && p.orgId === sandbox.current.credentials.organization_id)!;
const REQUEST_ID = /request id: ([0-9a-f-]{36})/;

async function expectRefused(args: string[], exitCode: number, code: string, extra: Record<string, string> = {}) {
  const messages = db().messages.size;
  const patients = db().patients.size;
  const r = await msgctl(args, { env: env(extra) });
  expect(r.exitCode, r.stderr).toBe(exitCode);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain(`(${code}, HTTP `);
  expect(r.stderr).toMatch(REQUEST_ID);
  expect(db().messages.size).toBe(messages);
  expect(db().patients.size).toBe(patients);
  return r;
}

describe('send errors map to exit codes', () => {
  it('invalid_token → 3', async () => {
    await expectRefused(['send', '--to', patient('Ada').id, 'x'], 3, 'invalid_token', { MSGCTL_API_KEY: 'msk_test_not_a_key' });
  });

  it('insufficient_scope → 3 (the reminders-only key cannot create patients)', async () => {
    const r = await expectRefused(
      ['patients', 'create', '--first-name', 'No', '--last-name', 'Scope', '--phone', '5555550140'],
      3,
      'insufficient_scope',
      { MSGCTL_API_KEY: sandbox.current.credentials.limited_api_key },
    );
    expect(r.stderr).toMatch(/patients\.write/);
    // What to do about it: the key came from MSGCTL_API_KEY, which overrides the stored credential.
    expect(r.stderr).toMatch(/hint: use a credential with that scope: MSGCTL_API_KEY overrides the profile's stored one/);
  });

  it('not_found → 4 for an unknown patient id and for a --from that is not the clinic\'s', async () => {
    await expectRefused(['send', '--to', randomUUID(), 'x'], 4, 'not_found');
    await expectRefused(['send', '--to', patient('Ada').id, '--from', '+15555550200', 'x'], 4, 'not_found');
  });

  it('ambiguous_recipient → 5, listing the candidates and a hint', async () => {
    const r = await expectRefused(['send', '--to', '555-555-0150', 'x'], 5, 'ambiguous_recipient');
    expect(r.stderr).toContain(patient('Alex').id);
    expect(r.stderr).toContain(patient('Jamie').id);
    expect(r.stderr).toMatch(/A-2001/);
    expect(r.stderr).toMatch(/hint: .*--mrn/);
  });

  it('--mrn resolves the shared phone to one family member', async () => {
    const r = await msgctl(['send', '--to', '555-555-0150', '--mrn', 'A-2002', 'For Jamie', '--json'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0].message.patient).toEqual({ id: patient('Jamie').id, name: 'Jamie Rivera' });
  });

  it('validation_failed → 6 with the field error (a name the service finds too long)', async () => {
    const r = await expectRefused(['send', '--to', '5555550141', '--first-name', 'N'.repeat(250), 'x'], 6, 'validation_failed');
    expect(r.stderr).toMatch(/- \/patient\/first_name: .* \[too_long\]/);
  });

  it('from_required → 6 when the key has no default number and the clinic has several', async () => {
    const token = `msk_test_${randomUUID().replace(/-/g, '')}`;
    db().apiKeys.put({
      id: randomUUID(), orgId: sandbox.current.credentials.organization_id, name: 'No default number', token,
      scopes: ['messages.write'], defaultPhoneNumberId: null, deletedAt: null,
    });
    await expectRefused(['send', '--to', patient('Ada').id, 'x'], 6, 'from_required', { MSGCTL_API_KEY: token });
    const ok = await msgctl(['send', '--to', patient('Ada').id, '--from', '+15555550110', 'x'], { env: env({ MSGCTL_API_KEY: token }) });
    expect(ok.exitCode, ok.stderr).toBe(0);
  });

  it('no_contact_method → 6 for sms to a patient with only an email', async () => {
    await expectRefused(['send', '--to', patient('Emma').id, '--channel', 'sms', 'x'], 6, 'no_contact_method');
  });

  it('patient_opted_out → 6 for sms to a patient who replied STOP, with a hint', async () => {
    const r = await expectRefused(['send', '--to', patient('Olive').id, '--channel', 'sms', 'x'], 6, 'patient_opted_out');
    expect(r.stderr).toMatch(/hint: .*STOP/);
    // Right also when the patient has no email, or the send was already secure: never "use --channel secure" alone.
    expect(r.stderr).toContain('A secure message goes by email to a patient who has one');
    expect(r.stderr).toContain('msgctl patients update ID --email ADDRESS');
  });

  it('with --json the problem is one JSON line on stderr', async () => {
    const r = await msgctl(['send', '--to', patient('Olive').id, '--channel', 'sms', 'x', '--json'], { env: env() });
    expect(r.exitCode).toBe(6);
    expect(r.stdout).toBe('');
    const [problem] = jsonLines(r.stderr);
    expect(problem).toMatchObject({ status: 422, code: 'patient_opted_out', field_errors: [] });
    expect(problem.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the sandbox answers malformed sends itself', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.current.baseUrl}/patient-messages`, {
      method: 'POST',
      body,
      headers: {
        authorization: `Bearer ${sandbox.current.credentials.api_key}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
        ...headers,
      },
    });

  it('400 invalid_request for malformed JSON, with X-Request-Id equal to request_id', async () => {
    const res = await post('{"to": ');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await res.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ code: 'invalid_request', field_errors: [] });
    expect(problem.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('400 invalid_request without an Idempotency-Key', async () => {
    const res = await post(JSON.stringify({ to: { patient_id: patient('Ada').id }, body: 'x' }), { 'idempotency-key': '' });
    expect(((await res.json()) as { code: string }).code).toBe('invalid_request');
  });

  it('422 validation_failed for an empty body and for a 1,601-character one', async () => {
    const empty = (await (await post(JSON.stringify({ to: { patient_id: patient('Ada').id }, body: '' }))).json()) as unknown;
    expect(empty).toMatchObject({ status: 422, code: 'validation_failed', field_errors: [expect.objectContaining({ path: '/body', code: 'required' })] });
    const long = (await (await post(JSON.stringify({ to: { patient_id: patient('Ada').id }, body: 'y'.repeat(1601) }))).json()) as { field_errors: unknown[] };
    expect(long.field_errors).toEqual([expect.objectContaining({ path: '/body', code: 'too_long' })]);
  });
});

describe('rate limiting', () => {
  const limited = useSandbox({ rateLimit: 1 });

  it('rate_limited → 7 once retries are exhausted (--retries 0), with the code and request id', async () => {
    const { sb, credentials } = limited.current;
    const keyId = sb.db.apiKeys.find((k) => k.token === credentials.api_key)!.id;
    // Empty the bucket (one request per second), then race three sends for whatever refills.
    for (;;) {
      try {
        checkRateLimit(sb, keyId);
      } catch (err) {
        if (err instanceof ProblemError && err.code === 'rate_limited') break;
        throw err;
      }
    }
    const ada = sb.db.patients.find((p) => p.phone === '+15555550123' && p.orgId === credentials.organization_id)!;
    const runs = await Promise.all(
      [1, 2, 3].map((n) => msgctl(['--retries', '0', 'send', '--to', ada.id, `Rate ${n}`], { env: sandboxEnv(limited.current) })),
    );
    const limitedRuns = runs.filter((r) => r.exitCode === 7);
    expect(runs.every((r) => r.exitCode === 0 || r.exitCode === 7)).toBe(true);
    expect(limitedRuns.length).toBeGreaterThan(0);
    for (const r of limitedRuns) {
      expect(r.stderr).toContain('(rate_limited, HTTP 429)');
      expect(r.stderr).toMatch(REQUEST_ID);
    }
    expect(sb.db.messages.filter((m) => m.body.startsWith('Rate '))).toHaveLength(runs.length - limitedRuns.length);
  });
});
