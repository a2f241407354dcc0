/**
 * One request rule on every endpoint (issue 31, items 1–3; issue 27, item 8):
 * an unknown or repeated query parameter is 400 naming it, a body names each
 * field once and only known ones (import rows and control endpoints too), a
 * path id that is not a UUID is 400 everywhere (`/me/…` included), and
 * whatever the HTTP layer itself refuses is a §7.2 status as problem+json
 * with an X-Request-Id — an odd method and CONNECT included.
 */
import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SCOPES } from '../../src/contract/api.js';
import { useSandbox } from '../helpers/sandbox.js';
import { staffWorld } from '../helpers/staff-world.js';

const sandbox = useSandbox();

const ID = '0b8f2a6e-4c1d-4e7a-9f3b-2d5c6e7f8a9b';

/** Every /v1 endpoint: method, path (`{id}` stands for a well-formed unknown UUID), OAuth only. */
const ENDPOINTS: [string, string, boolean][] = [
  ['GET', '/organization', false],
  ['POST', '/patients', false],
  ['GET', '/patients', false],
  ['GET', '/patients/{id}', false],
  ['PATCH', '/patients/{id}', false],
  ['DELETE', '/patients/{id}', false],
  ['POST', '/patient-messages', false],
  ['GET', '/patient-messages', false],
  ['GET', '/patient-messages/{id}', false],
  ['GET', '/patient-conversations', false],
  ['GET', '/patient-conversations/{id}', false],
  ['POST', '/patient-imports', false],
  ['GET', '/patient-imports/imp_123', false],
  ['POST', '/campaigns', false],
  ['GET', '/campaigns', false],
  ['GET', '/campaigns/{id}', false],
  ['PATCH', '/campaigns/{id}', false],
  ['DELETE', '/campaigns/{id}', false],
  ['POST', '/campaigns/{id}/start', false],
  ['POST', '/campaigns/{id}/pause', false],
  ['POST', '/campaigns/{id}/stop', false],
  ['POST', '/campaigns/{id}/recipients', false],
  ['POST', '/campaigns/{id}/recipients/remove', false],
  ['GET', '/campaigns/{id}/recipients', false],
  ['GET', '/me', true],
  ['GET', '/me/messages', true],
  ['GET', '/me/messages/{id}', true],
  ['POST', '/me/conversations/{id}/messages', true],
  ['GET', '/conversations/{id}', true],
  ['GET', '/conversations/{id}/messages', true],
  ['GET', '/conversations/{id}/participants', true],
  ['POST', '/conversations/{id}/participants', true],
  ['DELETE', '/conversations/{id}/participants/{id}', true],
  ['POST', '/conversations/{id}/exports', true],
  ['GET', '/exports/{id}', true],
  ['GET', '/messages/{id}/replies', true],
  ['POST', '/messages/{id}/reactions', true],
  ['DELETE', '/messages/{id}/reactions/%F0%9F%91%8D', true],
  ['GET', '/staff', true],
  ['POST', '/webhook-endpoints', true],
  ['GET', '/webhook-endpoints', true],
  ['DELETE', '/webhook-endpoints/{id}', true],
];

let oauth: string | undefined;
function tokenFor(oauthOnly: boolean): string {
  if (!oauthOnly) return sandbox.current.credentials.api_key;
  const world = staffWorld(sandbox.current);
  return (oauth ??= world.mintToken(world.dana, [...SCOPES]));
}

async function call(method: string, path: string, options: { token?: string; body?: string; url?: string } = {}) {
  const res = await fetch(options.url ?? `${sandbox.current.baseUrl}${path}`, {
    method,
    headers: {
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    body: options.body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const withBody = (method: string) => (method === 'POST' || method === 'PATCH' ? '{}' : undefined);

describe('query parameters', () => {
  it.each(ENDPOINTS)('%s %s: an unknown parameter is 400 naming it', async (method, template, oauthOnly) => {
    const path = `${template.replaceAll('{id}', ID)}?mrnn=A-1001`;
    const r = await call(method, path, { token: tokenFor(oauthOnly), body: withBody(method) });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request', parameter: 'mrnn', detail: expect.stringContaining('"mrnn"') });
    expect(r.body.field_errors).toContainEqual(expect.objectContaining({ path: 'mrnn', code: 'unknown_parameter' }));
    expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
  });

  it('a misspelt patient filter never answers with the roster', async () => {
    const key = tokenFor(false);
    for (const query of ['mrnn=A-1001', 'MRN=A-1001', 'phone_number=%2B15555550123', 'email=ada%40example.com', 'mrn=A-1001&page%5Blimt%5D=5']) {
      const r = await call('GET', `/patients?${query}`, { token: key });
      expect(r.status, query).toBe(400);
      expect(r.body.data, query).toBeUndefined();
    }
    const right = await call('GET', '/patients?mrn=A-1001', { token: key });
    expect(right.body.data.map((p: { mrn: string }) => p.mrn)).toEqual(['A-1001']);
  });

  it('unknown filters of /patient-messages, /patient-conversations and /campaigns are 400 too', async () => {
    const key = tokenFor(false);
    for (const path of ['/patient-messages?after=2026-01-01&patientid=x', '/patient-messages?after=2026-01-01&sort=asc', '/patient-conversations?status=open', '/campaigns?state=draft']) {
      const r = await call('GET', path, { token: key });
      expect(r.status, path).toBe(400);
      expect(r.body.code, path).toBe('invalid_request');
    }
  });

  it('a JSON body is UTF-8: other bytes or another charset are 400, nothing stored with U+FFFD in their place', async () => {
    const send = (bytes: Uint8Array, contentType: string) =>
      fetch(`${sandbox.current.baseUrl}/patients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenFor(false)}`, 'content-type': contentType, 'idempotency-key': randomUUID() },
        body: bytes,
      });
    const latin1 = Buffer.from('{"first_name":"Ren\xe9","last_name":"Latin","phone":"+15555550177"}', 'latin1');
    for (const [bytes, type] of [[latin1, 'application/json'], [latin1, 'application/json; charset=iso-8859-1'], [Buffer.from('{"first_name":"René","last_name":"Utf","phone":"+15555550178"}'), 'application/json; charset=windows-1252']] as const) {
      const res = await send(bytes, type);
      expect(res.status, type).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_request');
    }
    // ASCII is UTF-8's first 128 characters: that charset is fine.
    expect((await send(Buffer.from('{"first_name":"Rene","last_name":"Ascii","phone":"+15555550179"}'), 'application/json; charset=us-ascii')).status).toBe(201);
    const right = await send(Buffer.from('{"first_name":"René","last_name":"Utf","phone":"+15555550178"}'), 'application/json; charset=UTF-8');
    expect(right.status).toBe(201);
    expect(((await right.json()) as { first_name: string }).first_name).toBe('René');
  });

  it('an empty filter is 422 at its parameter on every list, never "no filter" (an unset shell variable)', async () => {
    const key = tokenFor(false);
    const cases: [string, string][] = [
      ['/patients?mrn=', 'mrn'],
      ['/patients?phone=', 'phone'],
      ['/patient-messages?after=2026-01-01&patient_id=', 'patient_id'],
      ['/patient-messages?after=2026-01-01&conversation_id=', 'conversation_id'],
      ['/patient-conversations?patient_id=', 'patient_id'],
      ['/patient-conversations?phone_number=', 'phone_number'],
      ['/patient-conversations?channel=', 'channel'],
      ['/patient-conversations?unread=', 'unread'],
      ['/campaigns?status=', 'status'],
      ['/campaigns?archived=', 'archived'],
    ];
    for (const [path, name] of cases) {
      const r = await call('GET', path, { token: key });
      expect(r.status, path).toBe(422);
      expect(r.body.code, path).toBe('validation_failed');
      expect(r.body.field_errors, path).toContainEqual(expect.objectContaining({ path: name, code: 'required' }));
    }
  });

  it('a known parameter given twice is 400 naming it, never "the first one"', async () => {
    const key = tokenFor(false);
    const cases: [string, string][] = [
      ['/patients?mrn=A-1001&mrn=A-1002', 'mrn'],
      ['/patients?page[limit]=5&page[limit]=6', 'page[limit]'],
      ['/patient-messages?after=2026-01-01&after=2026-02-01', 'after'],
      ['/patient-messages?after=2026-01-01&q=refill&q=results', 'q'],
      ['/campaigns?status=draft&status=running', 'status'],
      ['/patient-conversations?order=asc&order=desc', 'order'],
    ];
    for (const [path, name] of cases) {
      const r = await call('GET', path, { token: key });
      expect(r.status, path).toBe(400);
      expect(r.body.parameter, path).toBe(name);
      expect(r.body.field_errors, path).toContainEqual(expect.objectContaining({ path: name, code: 'repeated_parameter' }));
    }
    const me = await call('GET', '/me/messages?group_by=conversation&group_by=message', { token: tokenFor(true) });
    expect(me.status).toBe(400);
    expect(me.body.parameter).toBe('group_by');
  });

  it('control endpoints take no query parameters', async () => {
    for (const [method, path] of [['GET', '/_sandbox/faults?all=1'], ['GET', '/_sandbox/credentials?x=1']]) {
      const r = await call(method!, '', { url: `${sandbox.current.origin}${path}` });
      expect(r.status, path).toBe(400);
    }
  });
});

describe('path ids', () => {
  const withIds = ENDPOINTS.filter(([, path]) => path.includes('{id}'));
  it.each(withIds)('%s %s with an id that is not a UUID is 400 naming the parameter', async (method, template, oauthOnly) => {
    // Each id in turn is the bad one, the others well-formed.
    const slots = template.split('{id}').length - 1;
    for (let bad = 0; bad < slots; bad++) {
      let n = 0;
      const path = template.replaceAll('{id}', () => (n++ === bad ? 'nope' : ID));
      const r = await call(method, path, { token: tokenFor(oauthOnly), body: withBody(method) });
      expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.detail).toMatch(/must be a UUID \(got "nope"\)/);
      expect(r.body.field_errors).toEqual([expect.objectContaining({ path: r.body.parameter })]);
    }
  });

  it('the import id is text (§2.7), so an unknown one is 404', async () => {
    expect((await call('GET', '/patient-imports/nope', { token: tokenFor(false) })).status).toBe(404);
  });
});

describe('bodies', () => {
  it('a field given twice is 422 repeated_field at its path, nested ones included', async () => {
    const key = tokenFor(false);
    const patient = (await call('GET', '/patients?mrn=A-1001', { token: key })).body.data[0];
    const cases: [string, string, string][] = [
      ['/patient-messages', `{"to":{"patient_id":"${patient.id}"},"body":"Hi","body":"Bye"}`, '/body'],
      ['/patient-messages', `{"to":{"phone":"+15555550123","phone":"+15555550124"},"body":"Hi"}`, '/to/phone'],
      ['/patients', '{"first_name":"A","last_name":"B","phone":"+15555550175","\\u0070hone":"+15555550176"}', '/phone'],
      ['/patient-imports', '{"rows":[{"first_name":"A","last_name":"B","phone":"+15555550177"},{"first_name":"C","last_name":"D","mrn":"X-1","mrn":"X-2"}]}', '/rows/1/mrn'],
    ];
    for (const [path, body, field] of cases) {
      const r = await call('POST', path, { token: key, body });
      expect(r.status, body).toBe(422);
      expect(r.body.field_errors, body).toContainEqual(expect.objectContaining({ path: field, code: 'repeated_field' }));
    }
  });

  it('an import row with a field POST /patients does not know is refused, as POST /patients refuses it', async () => {
    const r = await call('POST', '/patient-imports', {
      token: tokenFor(false),
      body: JSON.stringify({ rows: [{ first_name: 'A', last_name: 'B', phone: '+15555550178' }, { first_name: 'C', last_name: 'D', phone: '+15555550179', nickname: 'Cee' }] }),
    });
    expect(r.status).toBe(422);
    expect(r.body.field_errors).toEqual([expect.objectContaining({ path: '/rows/1/nickname', code: 'unknown_field' })]);
  });

  it('control endpoints refuse unknown fields', async () => {
    const cases: [string, unknown][] = [
      ['/_sandbox/inbound', { from: '+15555550123', to: '+15555550100', body: 'Hi', sender: 'Ada' }],
      ['/_sandbox/clock', { advance_seconds: 0, advance_minutes: 1 }],
      ['/_sandbox/faults', { faults: [{ status: 503, methd: 'POST' }] }],
    ];
    for (const [path, body] of cases) {
      const r = await call('POST', '', { url: `${sandbox.current.origin}${path}`, body: JSON.stringify(body) });
      expect(r.status, path).toBe(422);
      expect(r.body.field_errors[0].code, path).toBe('unknown_field');
    }
    expect((await call('GET', '', { url: `${sandbox.current.origin}/_sandbox/faults` })).body.queued).toEqual([]);
  });

  it('the OAuth token endpoint refuses a form field given twice (RFC 6749 §3.2)', async () => {
    const res = await fetch(`${sandbox.current.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&grant_type=refresh_token&code=x',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/grant_type/) });
  });
});

/** Sends raw bytes and reads the whole answer (the server closes the connection after these). */
function rawExchange(text: string): Promise<string> {
  const { port } = new URL(sandbox.current.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseAnswer(raw: string) {
  const [head, body] = raw.split('\r\n\r\n');
  const lines = head!.split('\r\n');
  const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(lines[0]!.split(' ')[1]), headers, body: JSON.parse(body!) };
}

describe('what the HTTP layer refuses', () => {
  it.each([
    ['CONNECT', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n', /not a proxy/],
    ['an unknown method', 'FROB /v1/patients HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', /method/],
    ['a malformed request', 'GET /v1/patients HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: lots\r\n\r\n', /Malformed/],
    ['an Expect other than 100-continue', 'GET /v1/patients HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\n\r\n', /Expect: foo is not supported/],
    ['an HTTP/1.1 request without Host', 'GET /v1/patients HTTP/1.1\r\nConnection: close\r\n\r\n', /needs a Host header/],
    ['a control request without Host', 'GET /_sandbox/faults HTTP/1.1\r\nConnection: close\r\n\r\n', /needs a Host header/],
  ])('%s: 400 problem+json with X-Request-Id, not a closed socket', async (_what, request, detail) => {
    const answer = parseAnswer(await rawExchange(request));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ status: 400, code: 'invalid_request', detail: expect.stringMatching(detail) });
    expect(answer.headers['x-request-id']).toBe(answer.body.request_id);
  });

  it('a method the API does not route (TRACE, PUT, OPTIONS) is a 404 problem with X-Request-Id', async () => {
    for (const method of ['TRACE', 'PUT', 'OPTIONS']) {
      const r = parseAnswer(await rawExchange(`${method} /v1/patients HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
      expect(r.status, method).toBe(404);
      expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(r.headers['x-request-id']).toBe(r.body.request_id);
    }
  });

  it('every refusal uses a status of §7.2', async () => {
    const key = tokenFor(false);
    const statuses = [
      (await call('POST', '/patients', { token: key, body: '{"first_name": ' })).status,
      (await call('POST', '/patients', { token: key, body: JSON.stringify({ pad: 'x'.repeat(1_100_000) }) })).status,
      (await fetch(`${sandbox.current.baseUrl}/patients`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body: 'a,b' })).status,
      parseAnswer(await rawExchange(`GET /v1/patients?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)).status,
    ];
    expect(statuses).toEqual([400, 400, 400, 400]);
  });
});
