import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';
import { run } from '../../src/cli/cli.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current);
const orgId = () => sandbox.current.credentials.organization_id;
const orgPatients = () => sandbox.current.sb.db.patients.filter((p) => p.orgId === orgId() && !p.deleted_at);

beforeAll(() => {
  // Enough patients that a list takes several pages at any page size.
  const now = new Date().toISOString();
  for (let i = 0; i < 230; i++) {
    sandbox.current.sb.db.patients.insert({
      id: randomUUID(),
      orgId: orgId(),
      first_name: `Paged${i}`,
      last_name: 'Patient',
      date_of_birth: null,
      phone: null,
      email: `paged${i}@example.com`,
      mrn: `PG-${i}`,
      optedOutFrom: [],
      created_at: now,
      deleted_at: null,
    });
  }
});

describe('msgctl api: same data as the dedicated commands', () => {
  it('GET /organization prints what `org --json` prints', async () => {
    const [raw, org] = await Promise.all([msgctl(['api', 'GET', '/organization'], { env: env() }), msgctl(['org', '--json'], { env: env() })]);
    expect(raw.exitCode).toBe(0);
    expect(org.exitCode).toBe(0);
    expect(raw.stdout).toBe(org.stdout);
    expect(jsonLines(raw.stdout)[0].id).toBe(orgId());
  });

  it('GET /patients/<id> (no leading slash, lower-case method) prints what `patients get --json` prints', async () => {
    const id = orgPatients()[0]!.id;
    const raw = await msgctl(['api', 'get', `patients/${id}`], { env: env() });
    const get = await msgctl(['patients', 'get', id, '--json'], { env: env() });
    expect(raw.exitCode).toBe(0);
    expect(raw.stdout).toBe(get.stdout);
    expect(jsonLines(raw.stdout)[0].id).toBe(id);
  });

  it('GET /patients --paginate prints what `patients list --all --json` prints', async () => {
    const raw = await msgctl(['api', 'GET', '/patients', '--paginate'], { env: env() });
    const list = await msgctl(['patients', 'list', '--all', '--json'], { env: env() });
    expect(raw.exitCode).toBe(0);
    expect(list.exitCode).toBe(0);
    expect(raw.stdout).toBe(list.stdout);
    expect(jsonLines(raw.stdout).length).toBe(orgPatients().length);
  });
});

describe('msgctl api --paginate', () => {
  it('follows next_cursor page by page with the page size given as a field', async () => {
    const r = await msgctl(['api', 'GET', '/patients', '-F', 'page[limit]=40', '--paginate', '--verbose'], { env: env() });
    expect(r.exitCode).toBe(0);
    const records = jsonLines(r.stdout);
    const total = orgPatients().length;
    expect(total).toBeGreaterThan(200);
    expect(records.length).toBe(total);
    expect(new Set(records.map((p) => p.id)).size).toBe(total);
    const requests = r.stderr.split('\n').filter((l) => l.includes('GET /v1/patients'));
    expect(requests.length).toBe(Math.ceil(total / 40));
    expect(requests.every((l) => l.includes('page%5Blimit%5D=40') || l.includes('page[limit]=40'))).toBe(true);
    expect(requests.slice(1).every((l) => /page(%5B|\[)after/.test(l))).toBe(true);
  });

  it('takes query parameters from the path too, and --include prints each page\'s status and headers', async () => {
    const r = await msgctl(['api', 'GET', '/patients?page[limit]=100', '--paginate', '--include'], { env: env() });
    expect(r.exitCode).toBe(0);
    const statusLines = r.stdout.split('\n').filter((l) => l.startsWith('HTTP/'));
    expect(statusLines).toEqual(Array(Math.ceil(orgPatients().length / 100)).fill('HTTP/1.1 200 OK'));
    expect(r.stdout).toMatch(/^x-request-id: [0-9a-f-]{36}$/m);
  });

  it('refuses a response that is not a list (exit 1)', async () => {
    const r = await msgctl(['api', 'GET', '/organization', '--paginate'], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/not .*list|no "data" array/);
    expect(r.stdout).toBe('');
  });
});

describe('msgctl api writes', () => {
  it('POST sends nested fields as a JSON body, with a generated Idempotency-Key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-api-'));
    writeFileSync(join(dir, 'body.txt'), 'Your results are ready');
    const keysBefore = sandbox.current.sb.db.idempotency.size;
    // A relative @FILE is read from the working directory: test/e2e/text-inputs.test.ts, in a process of its own.
    const r = await msgctl(
      ['api', 'POST', '/patient-messages', '-f', 'to[phone]=+15555550177', '-F', `body=@${join(dir, 'body.txt')}`, '-f', 'channel=sms', '-f', 'patient[first_name]=Nia'],
      { env: env() },
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const [response] = jsonLines(r.stdout);
    expect(response.message.body).toBe('Your results are ready');
    expect(response.message.channel).toBe('sms');
    expect(sandbox.current.sb.db.patients.find((p) => p.phone === '+15555550177')?.first_name).toBe('Nia');
    expect(sandbox.current.sb.db.idempotency.size).toBe(keysBefore + 1);
  });

  it('an Idempotency-Key given with --header makes a repeated POST replay instead of creating twice', async () => {
    const key = randomUUID();
    const args = ['api', 'POST', '/patients', '-f', 'first_name=Ida', '-f', 'last_name=Key', '-f', 'email=ida.key@example.com', '-H', `Idempotency-Key: ${key}`];
    const first = await msgctl(args, { env: env() });
    const second = await msgctl(args, { env: env() });
    expect(first.exitCode).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(sandbox.current.sb.db.idempotency.find((r) => r.id.endsWith(`:${key}`))).toBeDefined();
    expect(sandbox.current.sb.db.patients.filter((p) => p.email === 'ida.key@example.com').length).toBe(1);
  });

  it('a POST whose connection drops after it was handled is retried with the same key and creates once', async () => {
    sandbox.current.testing.injectFaults({ reset: true, method: 'POST', path: '/patients' });
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['api', 'POST', '/patients', '-f', 'first_name=Rae', '-f', 'last_name=Reset', '-f', 'email=rae.reset@example.com'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const posts = sandbox.current.testing.requests().slice(before).filter((q) => q.method === 'POST');
    expect(posts.length).toBe(2);
    expect(posts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey);
    expect(sandbox.current.sb.db.patients.filter((p) => p.email === 'rae.reset@example.com').length).toBe(1);
  });

  it('--input - sends stdin as the whole body', async () => {
    const r = await msgctl(['api', 'POST', '/patients', '--input', '-'], {
      env: env(),
      input: JSON.stringify({ first_name: 'Stdin', last_name: 'Body', email: 'stdin.body@example.com' }),
    });
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ first_name: 'Stdin', email: 'stdin.body@example.com' });
  });

  it('PATCH with a typed null clears a field', async () => {
    const patient = orgPatients().find((p) => p.mrn === 'PG-7')!;
    const r = await msgctl(['api', 'PATCH', `/patients/${patient.id}`, '-F', 'mrn=null'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout)[0].mrn).toBeNull();
    expect(sandbox.current.sb.db.patients.get(patient.id)?.mrn).toBeNull();
  });
});

describe('msgctl api errors', () => {
  it('404 exits 4 with the problem on stderr', async () => {
    const r = await msgctl(['api', 'GET', `/patients/${randomUUID()}`], { env: env() });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/not_found/);
    expect(r.stderr).toMatch(/request id: [0-9a-f-]{36}/);
  });

  it('422 exits 6 and --json prints the problem as one JSON line on stderr', async () => {
    const r = await msgctl(['api', 'POST', '/patients', '-F', 'first_name=1', '--json'], { env: env() });
    expect(r.exitCode).toBe(6);
    const [problem] = jsonLines(r.stderr);
    expect(problem).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(problem.field_errors.length).toBeGreaterThan(0);
  });

  it('exits 3 for a bad key and for no credential at all', async () => {
    const bad = await msgctl(['api', 'GET', '/organization'], { env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'msk_test_nope' }) });
    expect(bad.exitCode).toBe(3);
    expect(bad.stderr).toMatch(/invalid_token/);
    const none = await msgctl(['api', 'GET', '/organization'], { env: isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl }) });
    expect(none.exitCode).toBe(3);
  });

  it('429 after the retries exits 7, 503 after the retries exits 8', async () => {
    sandbox.current.testing.injectFaults({ status: 429, retryAfter: 0, path: '/organization' }, { status: 429, retryAfter: 0, path: '/organization' });
    const limited = await msgctl(['api', 'GET', '/organization', '--retries', '1'], { env: env() });
    expect(limited.exitCode).toBe(7);
    expect(limited.stderr).toMatch(/rate_limited/);
    sandbox.current.testing.injectFaults({ status: 503, path: '/organization' }, { status: 503, path: '/organization' });
    const down = await msgctl(['api', 'GET', '/organization', '--retries', '1'], { env: env() });
    expect(down.exitCode).toBe(8);
  });

  it.each([
    [['api', 'GET', 'https://example.com/v1/organization'], /not a path/],
    [['api', 'GET', '/organization', '-H', 'Authorization: Bearer x'], /cannot set authorization/],
    [['api', 'GET', '/organization', '-H', 'X-Note: a\r\nX-Forged: b'], /x-note: its value holds a line break/],
    [['api', 'GET', '/organization', '-H', 'X-Note: a\u2028b'], /x-note: its value holds/],
    [['api', 'POST', '/patients', '--input', '-', '-f', 'a=b'], /not both/],
    [['api', 'GET', '/patients', '--input', '-'], /GET has no body/],
    [['api', 'POST', '/patients', '--paginate'], /only GET/],
    [['api', 'POST', '/patients', '--input', '-'], /not JSON/],
    [['api', 'TRACE', '/organization'], /Allowed: GET, POST/],
  ])('%j is a usage error (exit 2) and sends nothing', async (args, message) => {
    const sent = sandbox.current.testing.requests().length;
    const r = await msgctl(args, { env: env(), input: '{not json' });
    expect(sandbox.current.testing.requests().length).toBe(sent);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});

describe('msgctl api output', () => {
  it('pretty-prints the body on a terminal', async () => {
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    const stderr = new PassThrough();
    let text = '';
    stdout.on('data', (c) => (text += c));
    const code = await run(['api', 'GET', '/organization'], {
      io: { stdout, stderr, stdin: Readable.from([]) },
      env: { MSGCTL_BASE_URL: sandbox.current.baseUrl, MSGCTL_API_KEY: sandbox.current.credentials.api_key, HOME: isolatedEnv().HOME },
    });
    expect(code).toBe(0);
    expect(text).toBe(JSON.stringify({ id: orgId(), name: 'Riverside Family Clinic' }, null, 2) + '\n');
  });
});
