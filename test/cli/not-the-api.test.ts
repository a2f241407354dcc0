/**
 * A base URL that leads somewhere other than the API (a web server, a proxy's or a captive
 * portal's page, a stand-in that answers 2xx with something else): commands say what they got
 * and what to check, and never print an empty record with exit 0 or fail on a field that is
 * not there. The same for JSON of the wrong shape: each answer is checked against what api-spec.md
 * says it holds (src/cli/api/shapes.ts). `msgctl api` still prints any answer as it came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, msgctl } from '../helpers/in-process.js';

/** What the server answers next, by path. */
let answer: (method: string, path: string, url: string) => { status: number; type: string; body: string; requestId?: string };
const seen: string[] = [];
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const a = answer(req.method!, req.url!.split('?')[0]!, req.url!);
      res.writeHead(a.status, { 'content-type': a.type, 'x-request-id': a.requestId ?? 'req-not-the-api' }).end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

const env = () => isolatedEnv({ MSGCTL_BASE_URL: `http://127.0.0.1:${port}/v1`, MSGCTL_API_KEY: 'msk_test_not_the_api' });
const html = { status: 200, type: 'text/html', body: '<html><body>Welcome to nginx!</body></html>' };
const HINT = `Is the base URL right? It is http://127.0.0.1:PORT/v1; it should be the service's API root, ending in /v1`;

/** `send --csv` of these CSV rows (a header line first) from a fresh home; the env, to read its journal. */
async function sendCsv(rows: string) {
  const e = env();
  const csv = join(e.HOME!, 'rows.csv');
  writeFileSync(csv, rows);
  return { e, r: await msgctl(['send', '--csv', csv, '--template', 'Hi {first_name}'], { env: e }) };
}

describe('a 2xx answer that is not JSON', () => {
  it('org: exit 1, what came back and which base URL to check; nothing on stdout', async () => {
    answer = () => html;
    for (const args of [['org'], ['org', '--json'], ['patients', 'get', '0194f3c2-aaaa-7bbb-8ccc-123456789abc']]) {
      const r = await msgctl(args, { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr).toContain(`answered HTTP 200 with a text/html document, not the JSON the Messaging Service API answers with (request id req-not-the-api).`);
      expect(r.stderr).toContain(HINT.replace('PORT', String(port)));
    }
  });

  it('JSON that does not parse is named as such', async () => {
    answer = () => ({ status: 200, type: 'application/json', body: '{"id": "org_1", "name": ' });
    const r = await msgctl(['org'], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('GET /organization answered HTTP 200 with text that is not valid JSON');
  });

  it('msgctl api prints it as it came (exit 0)', async () => {
    answer = () => html;
    const r = await msgctl(['api', 'GET', '/organization'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('Welcome to nginx!');
  });
});

describe('a 2xx answer to POST /patient-messages without the message', () => {
  const organization = { status: 200, type: 'application/json', body: '{"id":"org_1","name":"Clinic","default_phone_number":"+15555550100"}' };
  const noMessage = { status: 201, type: 'application/json', body: '{"id":"msg_1"}' };

  it('send: exit 1, says the answer is not the API\'s and how to check before sending again', async () => {
    answer = (_method, path) => (path.endsWith('/organization') ? organization : noMessage);
    for (const args of [['send', '--to', '(212) 555-0100', 'Your results are ready.'], ['send', '--to', '(212) 555-0100', 'Your results are ready.', '--json']]) {
      const r = await msgctl(args, { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      const said = args.includes('--json') ? JSON.parse(r.stderr).detail + JSON.parse(r.stderr).hints.join('\n') : r.stderr;
      expect(said).toContain('POST /patient-messages answered HTTP 201 with JSON that is not the message it sent: "message" is missing (request id req-not-the-api). That is not an answer of the Messaging Service API.');
      expect(said).toContain('look for it with `msgctl messages list` before sending it again');
      expect(r.stderr).not.toContain('Cannot read properties');
    }
  });

  it('send --csv: the batch stops with that reason, and no row is recorded as sent', async () => {
    answer = (_method, path) => (path.endsWith('/organization') ? organization : noMessage);
    const { e, r } = await sendCsv('first_name,phone\nAna,(212) 555-0101\nBo,(212) 555-0102\n');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('stopped: POST /patient-messages answered HTTP 201 with JSON that is not the message it sent: "message" is missing');
    expect(r.stderr).not.toContain('Cannot read properties');
    const journals = join(e.XDG_STATE_HOME!, 'msgctl', 'journals');
    const lines = readdirSync(journals).flatMap((f) => readFileSync(join(journals, f), 'utf8').split('\n').filter(Boolean));
    expect(lines.filter((l) => l.includes('"sent"'))).toEqual([]);
  });
});

const UUID = '0194f3c2-aaaa-7bbb-8ccc-123456789abc';
const jsonAnswer = (body: unknown) => ({ status: 200, type: 'application/json', body: JSON.stringify(body) });

describe('a 2xx JSON answer of the wrong shape', () => {
  // Before the shapes, each of these printed a record of blanks with exit 0 or failed with
  // "Cannot read properties of undefined" (campaigns watch polled `{}` for ever).
  const records: [string[], string, string][] = [
    [['org'], 'GET /organization', 'an organization: "id" is missing'],
    [['me'], 'GET /me', 'the profile of the credential: "user" is missing'],
    [['patients', 'get', UUID], `GET /patients/${UUID}`, 'a patient: "id" is missing'],
    [['messages', 'get', UUID], `GET /patient-messages/${UUID}`, 'a message: "id" is missing'],
    [['conversations', 'get', UUID], `GET /patient-conversations/${UUID}`, 'a conversation: "id" is missing'],
    [['campaigns', 'get', UUID], `GET /campaigns/${UUID}`, 'a campaign: "id" is missing'],
    [['campaigns', 'watch', UUID], `GET /campaigns/${UUID}`, 'a campaign: "id" is missing'],
    [['campaigns', 'start', UUID, '--yes'], `POST /campaigns/${UUID}/start`, 'a campaign: "id" is missing'],
    [['imports', 'get', UUID], `GET /patient-imports/${UUID}`, 'a patient import: "id" is missing'],
    [['exports', 'get', UUID], `GET /exports/${UUID}`, 'an export: "id" is missing'],
    [['campaigns', 'archive', UUID], `PATCH /campaigns/${UUID}`, 'a campaign: "id" is missing'],
    [['auth', 'status'], 'GET /organization', 'an organization: "id" is missing'],
  ];
  it.each(records)('%j: exit 1, names the request, what was expected, the first wrong field and the request id', async (args, request, what) => {
    answer = () => jsonAnswer({});
    const r = await msgctl(args, { env: env(), timeout: 10_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    // auth status shows what it knows locally (profile, base URL, credential source) before the answer.
    if (args[0] !== 'auth') expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: ${request} answered HTTP 200 with JSON that is not ${what} (request id req-not-the-api). That is not an answer of the Messaging Service API.`);
    expect(r.stderr).toContain(HINT.replace('PORT', String(port)));
    expect(r.stderr).not.toContain('Cannot read properties');
  });

  it('a write says it may have been made all the same, first; a read does not', async () => {
    answer = () => jsonAnswer({});
    const start = await msgctl(['campaigns', 'start', UUID, '--yes'], { env: env() });
    expect(start.stderr).toContain('  The change may have been made all the same: check before running the command again.\n  Is the base URL right?');
    const meSend = await msgctl(['me', 'send', UUID, 'On my way.'], { env: env() });
    expect(meSend.exitCode, meSend.stderr).toBe(1);
    expect(meSend.stderr).toContain('POST /me/conversations/' + UUID + '/messages answered HTTP 200 with JSON that is not the message it sent: "id" is missing');
    expect(meSend.stderr).toContain('It may have been sent all the same: look for it with `msgctl me messages` before sending it again.');
    const get = await msgctl(['campaigns', 'get', UUID], { env: env() });
    expect(get.stderr).not.toContain('may have been');
    answer = () => html;
    const created = await msgctl(['patients', 'create', '--first-name', 'Ana', '--last-name', 'Ruiz', '--phone', '(212) 555-0101'], { env: env() });
    expect(created.exitCode, created.stderr).toBe(1);
    expect(created.stderr).toContain('POST /patients answered HTTP 200 with a text/html document');
    expect(created.stderr).toContain('The change may have been made all the same');
  });

  it('imports get --wait reads the import raw (its results can be large) and still checks it', async () => {
    answer = () => jsonAnswer({ id: 'imp_1', status: 'running', rows: '3' });
    const r = await msgctl(['imports', 'get', 'imp_1', '--wait'], { env: env(), timeout: 10_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('GET /patient-imports/imp_1 answered HTTP 200 with JSON that is not a patient import: "rows" is a string, not a number (request id req-not-the-api)');
  });

  it('a finished import\'s row outcomes are checked too, read whole or one by one (--wait)', async () => {
    const finished = { id: 'imp_1', status: 'completed', rows: 2, created: 1, matched: 0, failed: 1, created_at: '2026-11-01T10:00:00Z' };
    answer = () => jsonAnswer({ ...finished, results: [{ row: 2, outcome: 'created', patient_id: UUID, matched_by: null, errors: [] }, {}] });
    for (const args of [['imports', 'get', 'imp_1'], ['imports', 'get', 'imp_1', '--wait']]) {
      const r = await msgctl(args, { env: env(), timeout: 10_000 });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain('GET /patient-imports/imp_1 answered HTTP 200 with JSON that is not a patient import: "results[1].row" is missing (request id req-not-the-api)');
      expect(r.stderr).not.toContain('Cannot read properties');
    }
  });

  it('a field of the wrong type or a nested member missing is named by its path', async () => {
    answer = () => jsonAnswer({ id: UUID, name: 'Spring', status: 'draft', channel: 'sms', body: 'b', phone_number: { number: '+15555550100' } });
    let r = await msgctl(['campaigns', 'get', UUID], { env: env() });
    expect(r.stderr).toContain('JSON that is not a campaign: "phone_number.team" is missing');
    answer = () => jsonAnswer({ id: UUID, first_name: 'Ana', last_name: ['x'] });
    r = await msgctl(['patients', 'get', UUID], { env: env() });
    expect(r.stderr).toContain('JSON that is not a patient: "last_name" is an array, not a string');
    expect(r.exitCode).toBe(1);
  });

  it('--json: one problem line with its own code and the request id; the data itself is never repeated', async () => {
    answer = () => jsonAnswer({ id: UUID, first_name: '\u001b]0;owned\u0007', last_name: 7 });
    const r = await msgctl(['patients', 'get', UUID, '--json'], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    const problem = JSON.parse(r.stderr);
    expect(problem).toMatchObject({ code: 'unexpected_answer', title: 'Unexpected answer', request_id: 'req-not-the-api' });
    expect(problem.detail).toContain('"last_name" is a number, not a string');
    expect(r.stderr).not.toContain('owned');
  });

  const page = (data: unknown[]) => jsonAnswer({ data, pagination: { next_cursor: null, has_more: false } });
  const patient = { id: UUID, first_name: 'Ana', last_name: 'Ruiz', date_of_birth: null, phone: '+12125550101', email: null, mrn: null, sms_opted_out: false, conversation_count: 0, created_at: '2026-11-01T10:00:00Z', matched_by: null };

  it('lists: the first record of the wrong shape is named by its number, in tables and in --json FIELDS', async () => {
    answer = () => page([patient, { ...patient, first_name: undefined }]);
    for (const args of [['patients', 'list'], ['patients', 'list', '--json', 'id']]) {
      const r = await msgctl(args, { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(1);
      const said = args.includes('--json') ? JSON.parse(r.stderr).detail : r.stderr;
      expect(said).toContain('GET /patients answered HTTP 200 with a list whose record 2 is not a patient: "first_name" is missing (request id req-not-the-api)');
    }
    answer = () => page([patient]);
    const fine = await msgctl(['patients', 'list', '--json', 'id'], { env: env() });
    expect(fine.exitCode, fine.stderr).toBe(0);
    expect(fine.stdout).toBe(`{"id":"${UUID}"}\n`);
  });

  it('lists in --json: records are copied as sent, but each must be a JSON object', async () => {
    answer = () => page([patient, null, 5]);
    const r = await msgctl(['patients', 'list', '--json'], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'unexpected_answer', request_id: 'req-not-the-api' });
    expect(JSON.parse(r.stderr).detail).toContain('GET /patients answered HTTP 200 with JSON that is not a list page: "data[1]" is null, not an object (request id req-not-the-api)');
  });

  it('every list command checks its records', async () => {
    answer = () => page([{}]);
    const lists = [['patients', 'list'], ['messages', 'list', '--after', '7d'], ['conversations', 'list'], ['campaigns', 'list'], ['staff', 'list'],
      ['events', 'endpoints', 'list'], ['campaigns', 'recipients', 'list', UUID], ['conversations', 'messages', UUID], ['conversations', 'participants', UUID], ['messages', 'replies', UUID]];
    for (const args of lists) {
      const r = await msgctl(args, { env: env() });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/answered HTTP 200 with a list whose record 1 is not (a|an) [a-z ]+: "[a-z_.]+" is missing/);
    }
  });
});

describe('what the review of the shapes found', () => {
  const page = (data: unknown[], next: string | null = null) => jsonAnswer({ data, pagination: { next_cursor: next, has_more: next !== null } });
  const patient = (n: number) => ({ id: `0194f3c2-aaaa-7bbb-8ccc-00000000000${n}`, first_name: 'Ana', last_name: 'Ruiz', date_of_birth: null, phone: null, email: null, mrn: null, sms_opted_out: false, conversation_count: 0, created_at: '2026-11-01T10:00:00Z', matched_by: null });

  it('a list answered with something that is not a list page: the same error, code and request id as any other', async () => {
    answer = () => jsonAnswer({});
    for (const args of [['campaigns', 'list'], ['campaigns', 'list', '--json'], ['campaigns', 'list', '--json', 'id']]) {
      const r = await msgctl(args, { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(1);
      const said = args.includes('--json') ? JSON.parse(r.stderr) : { detail: r.stderr };
      expect(said.detail).toContain('GET /campaigns answered HTTP 200 with JSON that is not a list page: "data" is missing (request id req-not-the-api)');
      if (args.includes('--json')) expect(said).toMatchObject({ code: 'unexpected_answer', request_id: 'req-not-the-api' });
    }
    answer = () => html;
    const r = await msgctl(['campaigns', 'list', '--json'], { env: env() });
    expect(JSON.parse(r.stderr).detail).toContain('GET /campaigns answered HTTP 200 with a text/html document');
  });

  it('records are numbered across pages', async () => {
    answer = (_m, _p, url) => (url.includes('page%5Bafter%5D=p2') || url.includes('page[after]=p2') ? page([{ id: 'x' }]) : page([patient(1), patient(2)], 'p2'));
    const r = await msgctl(['patients', 'list', '--all'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('GET /patients answered HTTP 200 with a list whose record 3 is not a patient: "first_name" is missing');
  });

  it('a cursor handed back again ends the list with an error instead of walking it for ever', async () => {
    let requests = 0;
    // No cursor: c1; after c1: c2; after c2: c1 again.
    answer = (_m, _p, url) => {
      requests++;
      return page([patient(1)], new URL(url, 'http://x').searchParams.get('page[after]') === 'c1' ? 'c2' : 'c1');
    };
    for (const args of [['patients', 'list', '--all'], ['patients', 'list', '--all', '--json']]) {
      requests = 0;
      const r = await msgctl(args, { env: env(), timeout: 10_000 });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain('GET /patients answered with a next-page cursor it had already given: msgctl stopped reading, as that list would never end.');
      expect(requests).toBe(3);
    }
  });

  it('the pagination envelope is checked too', async () => {
    answer = () => jsonAnswer({ data: [patient(1)], pagination: { next_cursor: null, has_more: 'false' } });
    for (const args of [['patients', 'list'], ['patients', 'list', '--json']]) {
      const r = await msgctl(args, { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(1);
      const said = args.includes('--json') ? JSON.parse(r.stderr).detail : r.stderr;
      expect(said).toContain('GET /patients answered HTTP 200 with JSON that is not a list page: "pagination.has_more" is a string, not a boolean');
    }
  });

  it('a new webhook endpoint without its signing secret is an error, not a blank secret', async () => {
    answer = () => jsonAnswer({ id: UUID, url: 'https://example.test/hook', events: null, created_at: '2026-11-01T10:00:00Z' });
    const r = await msgctl(['events', 'endpoints', 'create', '--url', 'https://example.test/hook'], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('with JSON that is not a new webhook endpoint with its signing secret: "secret" is missing');
  });

  it('a batch says a re-run sends the row with the same key; imports say the same of their rows', async () => {
    const organization = jsonAnswer({ id: 'org_1', name: 'Clinic' });
    answer = (_method, path) => (path.endsWith('/organization') ? organization : { ...jsonAnswer({ id: 'msg_1' }), status: 201 });
    const { e, r: batch } = await sendCsv('first_name,phone\nAna,(212) 555-0101\n');
    expect(batch.exitCode).toBe(1);
    expect(batch.stderr).toContain("The row's message may have been sent all the same: the same command again sends it with the same Idempotency-Key, so it is not sent twice.");
    answer = (_method, path) => (path.endsWith('/organization') ? organization : jsonAnswer({}));
    const roster = join(e.HOME!, 'roster.csv');
    writeFileSync(roster, 'first_name,last_name,phone\nAna,Ruiz,(212) 555-0101\n');
    const imported = await msgctl(['imports', 'create', roster], { env: e });
    expect(imported.exitCode, imported.stderr).toBe(1);
    expect(imported.stderr).toContain('POST /patient-imports answered HTTP 200 with JSON that is not a patient import: "id" is missing');
    expect(imported.stderr).toContain('These rows may have been imported all the same: the same command again sends them with the same Idempotency-Key, so they are not imported twice.');
  });

  it('the request id is the server\'s text: shortened, and its control characters shown as escapes (the batch summary too)', async () => {
    const organization = jsonAnswer({ id: 'org_1', name: 'Clinic' });
    const id = `req-\u009b31m${'x'.repeat(200)}`;
    answer = (_method, path) => (path.endsWith('/organization') ? organization : { ...jsonAnswer({ id: 'msg_1' }), status: 201, requestId: id });
    const { r } = await sendCsv('first_name,phone\nAna,(212) 555-0101\n');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('\u009b');
    expect(r.stderr).toContain(`(request id req-\\x9b31m${'x'.repeat(72)}…)`);
    expect(r.stderr).toContain('  stopped: POST /patient-messages answered HTTP 201');
  });

  it('imports get --wait: a body that is not JSON is named as such', async () => {
    answer = () => html;
    const r = await msgctl(['imports', 'get', 'imp_1', '--wait'], { env: env(), timeout: 10_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('GET /patient-imports/imp_1 answered HTTP 200 with a text/html document');
  });

  it('sandbox control commands pointed at something else: an error, not a TypeError', async () => {
    answer = () => jsonAnswer({});
    for (const args of [['sandbox', 'faults', 'list'], ['sandbox', 'faults', 'clear'], ['sandbox', 'reply', '--from', '+15555550123', '--to', '+15555550110', 'Thanks']]) {
      const r = await msgctl(['--base-url', `http://127.0.0.1:${port}/v1`, ...args], { env: env() });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(/answered HTTP 200 with JSON that is not (the|a) [^:]+: "[a-z_]+" is missing/);
      expect(r.stderr).not.toContain('Cannot read properties');
    }
  });
});
