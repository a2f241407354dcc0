/**
 * docs/sandbox.md "Every reading the spec leaves open" against the sandbox
 * (issue 31, item 5): every row of the table is walked, and each probe in it
 * — a request written as the docs show it, with the answer they promise — is
 * sent over a raw socket to a fresh sandbox. A row's scenario runs here; a
 * row that names a test must name one that exists. Change the sandbox and not
 * the table (or the other way round) and this fails.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { SCOPES } from '../../src/contract/api.js';
import { useSandbox } from '../helpers/sandbox.js';
import { staffWorld } from '../helpers/staff-world.js';

const root = new URL('../../', import.meta.url);
const sandbox = useSandbox();

interface Row {
  line: number;
  reading: string;
  probes: string[];
  scenarios: string[];
  tests: string[];
}

/** The table's rows, with the code spans of their Probe column sorted by kind. */
function readTable(): Row[] {
  const lines = readFileSync(new URL('docs/sandbox.md', root), 'utf8').split('\n');
  const start = lines.findIndex((l) => l === '## Every reading the spec leaves open');
  expect(start, 'docs/sandbox.md has the section').toBeGreaterThan(0);
  const header = lines.findIndex((l, i) => i > start && l.startsWith('| Where the spec is open |'));
  const rows: Row[] = [];
  for (let i = header + 2; lines[i]?.startsWith('|'); i++) {
    const cells = lines[i]!.slice(2, -2).split(' | ');
    expect(cells, `docs/sandbox.md:${i + 1} has four cells`).toHaveLength(4);
    const spans = [...cells[3]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    rows.push({
      line: i + 1,
      reading: cells[0]!,
      probes: spans.filter((s) => s.includes(' → ')),
      scenarios: spans.filter((s) => s.startsWith('scenario:')).map((s) => s.slice('scenario:'.length)),
      tests: spans.filter((s) => s.startsWith('test/')),
    });
  }
  return rows;
}

const rows = readTable();

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** One request as raw bytes (any method, any Host), then the whole answer; the connection closes after it. */
function exchange(method: string, target: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { port } = new URL(sandbox.current.origin);
  const all = { host: `127.0.0.1:${port}`, connection: 'close', ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers };
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(body === undefined ? head : head + body));
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const [status, ...fields] = raw.slice(0, split).split('\r\n');
      const headerMap = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]));
      let text = raw.slice(split + 4);
      if (headerMap['transfer-encoding'] === 'chunked') text = unchunk(text);
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON (a discovery document): kept as text
      }
      resolve({ status: Number(status!.split(' ')[1]), headers: headerMap, body: parsed });
    });
  });
}

function unchunk(text: string): string {
  let out = '';
  for (let at = 0; ;) {
    const eol = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

let oauth = '';
const fixed: Record<string, string> = {};

beforeAll(async () => {
  const world = staffWorld(sandbox.current);
  oauth = world.mintToken(world.dana, [...SCOPES]);
  const chat = world.addConversation([world.dana, world.sam]);
  fixed.chat = chat.id;
  fixed.message = world.addMessage(chat, world.sam, 'Lunch at noon?').id;
  fixed.patient = (await api('GET', '/v1/patients?mrn=A-1001')).body.data[0].id;
  fixed.campaign = (await api('POST', '/v1/campaigns', JSON.stringify({ name: 'Readings', body: 'Recall' }))).body.id;
});

afterEach(() => {
  vi.useRealTimers();
});

function api(method: string, target: string, body?: string, token = sandbox.current.credentials.api_key) {
  return exchange(method, target, {
    authorization: `Bearer ${token}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
  }, body);
}

/** The probe's placeholders filled in; some make a fresh record for this probe alone. */
async function fill(text: string): Promise<string> {
  let out = text;
  for (const match of text.matchAll(/\{(new-campaign|new-patient|uuid|cursor:[^}]+|pad:\d+|emoji:\d+|patient|campaign|chat|message)\}/g)) {
    const [whole, name] = match as unknown as [string, string];
    let value: string;
    if (name === 'new-campaign') value = (await api('POST', '/v1/campaigns', JSON.stringify({ name: 'Fresh', body: 'Recall' }))).body.id;
    else if (name === 'new-patient') value = (await api('POST', '/v1/patients', JSON.stringify({ first_name: 'Fresh', last_name: 'Patient', email: `${randomUUID()}@example.com` }))).body.id;
    else if (name === 'uuid') value = randomUUID();
    else if (name.startsWith('cursor:')) {
      value = (await api('GET', name.slice('cursor:'.length))).body.pagination.next_cursor;
      expect(value, whole).toBeTruthy();
      value = encodeURIComponent(value);
    } else if (name.startsWith('pad:')) value = 'x'.repeat(Number(name.slice(4)));
    else if (name.startsWith('emoji:')) value = '🙂'.repeat(Number(name.slice(6)));
    else value = fixed[name]!;
    out = out.replace(whole, value);
  }
  return out;
}

/** Strings written /like this/ in the docs are patterns. */
function expectation(value: unknown): unknown {
  if (typeof value === 'string' && value.length > 1 && value.startsWith('/') && value.endsWith('/')) return expect.stringMatching(new RegExp(value.slice(1, -1)));
  if (Array.isArray(value)) return expect.arrayContaining(value.map((v) => (typeof v === 'object' && v !== null ? expect.objectContaining(expectation(v) as object) : expectation(v))));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expectation(v)]));
  return value;
}

async function runProbe(probe: string): Promise<void> {
  const [left, right] = probe.split(' → ') as [string, string];
  let rest = left;
  let credential = 'key';
  const who = /^\((O|limited|none)\) /.exec(rest);
  if (who) {
    credential = who[1]!;
    rest = rest.slice(who[0].length);
  }
  const [method, target] = rest.split(' ', 2) as [string, string];
  rest = rest.slice(method.length + target.length + 2);
  const headers: Record<string, string> = {};
  let idempotencyKey = method === 'POST';
  for (let m; (m = /^\[([^\]]+)\] ?/.exec(rest)); rest = rest.slice(m[0].length)) {
    if (m[1] === 'no Idempotency-Key') idempotencyKey = false;
    else {
      const [name, value] = m[1]!.split(': ') as [string, string];
      if (name.toLowerCase() === 'idempotency-key') idempotencyKey = false;
      headers[name.toLowerCase()] = value;
    }
  }
  const body = rest === '' ? undefined : await fill(rest);
  if (credential === 'key') headers.authorization = `Bearer ${sandbox.current.credentials.api_key}`;
  if (credential === 'limited') headers.authorization = `Bearer ${sandbox.current.credentials.limited_api_key}`;
  if (credential === 'O') headers.authorization = `Bearer ${oauth}`;
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  if (idempotencyKey) headers['idempotency-key'] = randomUUID();

  const answer = await exchange(method, await fill(target), headers, body);
  const [, status, code, json] = /^(\d{3})(?: ([a-z_]+))?(?: (.+))?$/.exec(right)!;
  const context = `${probe}\n  answered ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 400)}`;
  expect(answer.status, context).toBe(Number(status));
  expect(answer.headers['x-request-id'], `${context}\n  (every answer carries X-Request-Id)`).toBeTruthy();
  if (answer.status >= 400) {
    expect(answer.headers['content-type'], context).toMatch(/^application\/problem\+json/);
    expect(answer.body.request_id, context).toBe(answer.headers['x-request-id']);
  }
  if (code) expect(answer.body?.code, context).toBe(code);
  if (json) expect(answer.body, context).toMatchObject(expectation(JSON.parse(json)) as object);
}

const scenarios: Record<string, () => Promise<void>> = {
  /** Three messages in one millisecond: newest first serves them latest first. */
  async 'newest-first-ties'() {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-05-04T10:00:00.000Z') });
    const patient = (await api('POST', '/v1/patients', JSON.stringify({ first_name: 'Tie', last_name: 'Break', phone: '+15555550167' }))).body;
    const sent: string[] = [];
    for (const body of ['one', 'two', 'three']) {
      sent.push((await api('POST', '/v1/patient-messages', JSON.stringify({ to: { patient_id: patient.id }, body }))).body.message.id);
    }
    const listed = (await api('GET', `/v1/patient-messages?patient_id=${patient.id}`)).body.data as { id: string; created_at: string }[];
    expect(new Set(listed.map((m) => m.created_at)).size).toBe(1);
    expect(listed.map((m) => m.id)).toEqual([...sent].reverse());
  },
};

describe('docs/sandbox.md: every reading the spec leaves open', () => {
  it('the table has its rows, each with something to check', () => {
    expect(rows.length).toBeGreaterThan(40);
    for (const row of rows) {
      expect(row.probes.length + row.scenarios.length + row.tests.length, `docs/sandbox.md:${row.line} (${row.reading}) has no probe`).toBeGreaterThan(0);
    }
  });

  it('names only tests that exist, and scenarios this file runs (and no scenario it does not name)', () => {
    const named = rows.flatMap((r) => r.scenarios);
    for (const row of rows) {
      for (const test of row.tests) expect(existsSync(new URL(test, root)), `docs/sandbox.md:${row.line} names ${test}`).toBe(true);
    }
    expect(named.sort()).toEqual(Object.keys(scenarios).sort());
  });

  describe.each(rows.filter((r) => r.probes.length + r.scenarios.length > 0).map((r) => [`docs/sandbox.md:${r.line} ${r.reading.slice(0, 90)}`, r] as const))('%s', (_title, row) => {
    it.each([...row.probes.map((p) => ['probe', p]), ...row.scenarios.map((s) => ['scenario', s])])('%s %s', async (kind, what) => {
      if (kind === 'scenario') await scenarios[what]!();
      else await runProbe(what);
    });
  });
});
