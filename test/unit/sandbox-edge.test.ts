/**
 * The sandbox's HTTP edge (issue 14): bad input is a 4xx problem with a
 * request id, never a 500 (which clients retry forever) and never a silent
 * "no filter".
 */
import { describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { parseQueryString } from '../../src/sandbox/http/edge.js';

const sandbox = useSandbox();
const auth = () => ({ authorization: `Bearer ${sandbox.current.credentials.api_key}` });

async function problem(res: Response) {
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  return (await res.json()) as { status: number; code: string; detail?: string };
}

/** A raw request, for what fetch will not send (a foreign Host, huge headers). */
function raw(path: string, headers: Record<string, string>, method = 'GET', body?: string) {
  const { port } = new URL(sandbox.current.origin);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const post = (path: string, body: string, contentType = 'application/json', headers: Record<string, string> = auth()) =>
  fetch(`${sandbox.current.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': contentType, 'idempotency-key': randomUUID() },
    body,
  });

describe('bodies', () => {
  it('a JSON body nested thousands of levels deep is a 400, not a 500', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const res = await post('/patient-messages', deep);
    expect(res.status).toBe(400);
    expect(await problem(res)).toMatchObject({ code: 'invalid_request', detail: expect.stringMatching(/nests deeper/) });
    const arrays = await post('/patients', `{"first_name":${'['.repeat(3000)}${']'.repeat(3000)}}`);
    expect(arrays.status).toBe(400);
  });

  it('/v1 takes application/json only: form, text and multipart bodies are 400 problems saying so (§7.2 has no 415)', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await post('/patients', 'first_name=Ada&last_name=L&phone=5555550199', type);
      expect(res.status, type).toBe(400);
      expect(await problem(res)).toMatchObject({ code: 'invalid_request', detail: expect.stringMatching(/Content-Type: application\/json/) });
    }
  });

  it('bodies over 1 MB are 400 problems naming the limit (§7.2 has no 413), but an import may be larger', async () => {
    const big = JSON.stringify({ first_name: 'A', last_name: 'B', phone: '+15555550199', note: 'x'.repeat(1_100_000) });
    const res = await post('/patients', big);
    expect(res.status).toBe(400);
    expect(await problem(res)).toMatchObject({ status: 400, code: 'invalid_request', detail: expect.stringMatching(/1 MB.*16 MB/) });
    const rows = Array.from({ length: 5000 }, (_, i) => ({ first_name: `Big${i}`, last_name: 'x'.repeat(190), mrn: `BIG-${i}`, email: `big${i}@example.com` }));
    const body = JSON.stringify({ rows });
    expect(body.length).toBeGreaterThan(1024 * 1024);
    expect((await post('/patient-imports', body)).status).toBe(202);
  });

  it('authenticates before reading the body: a bad credential is 401 even with a malformed body', async () => {
    const res = await post('/patients', '{not json', 'application/json', { authorization: 'Bearer nope' });
    expect(res.status).toBe(401);
    const oversized = await post('/patients', JSON.stringify({ x: 'x'.repeat(2_000_000) }), 'application/json', {});
    expect(oversized.status).toBe(401);
  });
});

describe('answers', () => {
  it('Latin-1 (sent as a string) and two-byte text (sent as bytes) arrive as UTF-8 with the right Content-Length', async () => {
    for (const first_name of ['Tomás Müller', '日本 🙂']) {
      const created = await fetch(`${sandbox.current.baseUrl}/patients`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ first_name, last_name: 'Text', email: `t${first_name.length}@example.com`, mrn: `T-${first_name.length}` }),
      });
      expect(created.status).toBe(201);
      const res = await fetch(`${sandbox.current.baseUrl}/patients?mrn=T-${first_name.length}`, { headers: auth() });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(JSON.parse(bytes.toString('utf8')).data[0].first_name).toBe(first_name);
    }
  });

  it('a long Latin-1 answer (past the string path, sent as bytes) arrives whole', async () => {
    const body = `Résumé ${'é'.repeat(1_400)}`;
    for (let i = 0; i < 12; i++) {
      const sent = await fetch(`${sandbox.current.baseUrl}/patient-messages`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ to: { phone: '+12125550177' }, body }),
      });
      expect(sent.status).toBe(201);
    }
    const res = await fetch(`${sandbox.current.baseUrl}/patient-messages?after=2000-01-01&page[limit]=100`, { headers: auth() });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(16 * 1024);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const page = JSON.parse(bytes.toString('utf8')) as { data: { body: string }[] };
    expect(page.data.filter((m) => m.body === body)).toHaveLength(12);
  });
});

describe('query strings and headers', () => {
  it('malformed percent-encoding or a nameless parameter is 400 invalid_request, never "no filter"', async () => {
    for (const qs of ['mrn=%ZZ', '%=1', '=1']) {
      const res = await fetch(`${sandbox.current.baseUrl}/patients?${qs}`, { headers: auth() });
      expect(res.status, qs).toBe(400);
      expect((await problem(res)).detail).toMatch(/Malformed query string/);
    }
    const q = await fetch(`${sandbox.current.baseUrl}/patient-messages?after=2000-01-01&q=%ZZ`, { headers: auth() });
    expect(q.status).toBe(400);
  });

  it('decodes + and percent-encoding, and takes plain parts as they are', () => {
    expect({ ...parseQueryString('page[limit]=50&q=ada+lovelace&mrn=A%2D1001&page%5Bafter%5D=x.y&flag&empty=') }).toEqual({
      'page[limit]': '50',
      q: 'ada lovelace',
      mrn: 'A-1001',
      'page[after]': 'x.y',
      flag: '',
      empty: '',
    });
    expect({ ...parseQueryString('phone=1&phone=%2B15555550123') }).toEqual({ phone: ['1', '+15555550123'] });
    // A value that decodes to anything at all (a NUL included) is a value, not a mark.
    expect({ ...parseQueryString('q=%00malformed') }).toEqual({ q: '\u0000malformed' });
  });

  it('a q nested thousands of levels deep is 400 invalid_query, not a 500', async () => {
    for (const q of ['('.repeat(5000) + 'x' + ')'.repeat(5000), '-'.repeat(5000) + 'x']) {
      const res = await fetch(`${sandbox.current.baseUrl}/patient-messages?after=2000-01-01&q=${encodeURIComponent(q)}`, { headers: auth() });
      expect(res.status).toBe(400);
      expect((await problem(res)).code).toBe('invalid_query');
    }
  });

  it('headers over the limit (a long q) are 400 as problem+json with X-Request-Id, naming the limit (§7.2 has no 431)', async () => {
    const res = await raw(`/v1/patient-messages?after=2000-01-01&q=${'word%20'.repeat(4000)}`, auth());
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = JSON.parse(res.body);
    expect(res.headers['x-request-id']).toBe(body.request_id);
    expect(body).toMatchObject({ status: 400, code: 'invalid_request', detail: expect.stringMatching(/16 KB.*shorten/) });
  });
});

describe('/_sandbox', () => {
  it('answers only a loopback Host with its own port (no DNS rebinding)', async () => {
    const { port } = new URL(sandbox.current.origin);
    const foreign = await raw('/_sandbox/credentials', { host: `evil.example:${port}` });
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toContain(sandbox.current.credentials.api_key);
    expect((await raw('/_sandbox/credentials', { host: `localhost:${Number(port) + 1}` })).status).toBe(403);
    const own = await raw('/_sandbox/credentials', { host: `localhost:${port}` });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body).api_key).toBe(sandbox.current.credentials.api_key);
  });

  it('refuses to move the clock past 9999 (400), and keeps answering writes afterwards', async () => {
    for (const advance of [9e12, 1e308]) {
      const res = await fetch(`${sandbox.current.origin}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_seconds: advance }) });
      expect(res.status, String(advance)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_request');
    }
    const clock = await fetch(`${sandbox.current.origin}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advance_seconds":0}' });
    expect(clock.status).toBe(200);
    expect(((await clock.json()) as { now: string }).now).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('takes JSON bodies only: a form post (CORS-simple) cannot move the clock or inject a message', async () => {
    for (const [path, body] of [['/_sandbox/clock', 'advance_seconds=86400'], ['/_sandbox/inbound', 'from=5555550123&to=%2B15555550100&body=hi']]) {
      const res = await fetch(`${sandbox.current.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      expect(res.status, path).toBe(400);
    }
    const text = await fetch(`${sandbox.current.origin}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"advance_seconds":1}' });
    expect(text.status).toBe(400);
  });
});

describe('cursors and conversations', () => {
  it('a cursor whose contents were edited (say, its expiry) is a 400', async () => {
    const first = await fetch(`${sandbox.current.baseUrl}/patients?page[limit]=1`, { headers: auth() });
    const cursor = ((await first.json()) as { pagination: { next_cursor: string } }).pagination.next_cursor;
    expect(cursor).toBeTruthy();
    const ok = await fetch(`${sandbox.current.baseUrl}/patients?page[limit]=1&page[after]=${encodeURIComponent(cursor)}`, { headers: auth() });
    expect(ok.status).toBe(200);
    // Forge: decode whatever JSON the cursor carries, move its time far ahead, re-encode the same way.
    const [payload, mac] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    decoded.t = Date.now() + 365 * 86_400_000;
    const forged = [Buffer.from(JSON.stringify(decoded)).toString('base64url'), mac].filter(Boolean).join('.');
    const res = await fetch(`${sandbox.current.baseUrl}/patients?page[limit]=1&page[after]=${encodeURIComponent(forged)}`, { headers: auth() });
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe('invalid_request');
  });

  it('seen_at is a timestamp on a conversation nobody has read yet', async () => {
    const sent = await post('/patient-messages', JSON.stringify({ to: { phone: '+15555550177' }, body: 'hello' }));
    expect(sent.status).toBe(201);
    const { message } = (await sent.json()) as { message: { conversation: { id: string } } };
    const res = await fetch(`${sandbox.current.baseUrl}/patient-conversations/${message.conversation.id}`, { headers: auth() });
    expect(res.status).toBe(200);
    const seenAt = ((await res.json()) as { seen_at: unknown }).seen_at;
    expect(typeof seenAt).toBe('string');
    expect(Number.isNaN(Date.parse(seenAt as string))).toBe(false);
  });
});

describe('null in a field that is not nullable', () => {
  it('POST /patient-messages answers 422 not_nullable for channel, from or patient set to null (as POST /campaigns does)', async () => {
    for (const field of ['channel', 'from', 'patient']) {
      const res = await post('/patient-messages', JSON.stringify({ to: { phone: '+15555550123' }, body: 'x', [field]: null }));
      expect(res.status, field).toBe(422);
      const body = (await problem(res)) as unknown as { field_errors: { path: string; code: string }[] };
      expect(body.field_errors).toContainEqual(expect.objectContaining({ path: `/${field}`, code: 'not_nullable' }));
    }
  });
});
