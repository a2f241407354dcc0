/**
 * A base URL that leads somewhere other than the API (a web server, a proxy's or a captive
 * portal's page, a stand-in that answers 2xx with something else): commands say what they got
 * and what to check, and never print an empty record with exit 0 or fail on a field that is
 * not there. `msgctl api` still prints any answer as it came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, msgctl } from '../helpers/in-process.js';

/** What the server answers next, by path. */
let answer: (method: string, path: string) => { status: number; type: string; body: string };
const seen: string[] = [];
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const a = answer(req.method!, req.url!.split('?')[0]!);
      res.writeHead(a.status, { 'content-type': a.type, 'x-request-id': 'req-not-the-api' }).end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

const env = () => isolatedEnv({ MSGCTL_BASE_URL: `http://127.0.0.1:${port}/v1`, MSGCTL_API_KEY: 'msk_test_not_the_api' });
const html = { status: 200, type: 'text/html', body: '<html><body>Welcome to nginx!</body></html>' };
const HINT = `Is the base URL right? It is http://127.0.0.1:PORT/v1; it should be the service's API root, ending in /v1`;

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
      expect(r.stderr).toContain('POST /patient-messages answered HTTP 201 without the message it sent (request id req-not-the-api): not an answer of the Messaging Service API.');
      expect(r.stderr).toContain('look for it with `msgctl messages list` before sending it again');
      expect(r.stderr).not.toContain('Cannot read properties');
    }
  });

  it('send --csv: the batch stops with that reason, and no row is recorded as sent', async () => {
    answer = (_method, path) => (path.endsWith('/organization') ? organization : noMessage);
    const e = env();
    const csv = join(e.HOME!, 'rows.csv');
    writeFileSync(csv, 'first_name,phone\nAna,(212) 555-0101\nBo,(212) 555-0102\n');
    const r = await msgctl(['send', '--csv', csv, '--template', 'Hi {first_name}'], { env: e });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('stopped: POST /patient-messages answered HTTP 201 without the message it sent');
    expect(r.stderr).not.toContain('Cannot read properties');
    const journals = join(e.XDG_STATE_HOME!, 'msgctl', 'journals');
    const lines = readdirSync(journals).flatMap((f) => readFileSync(join(journals, f), 'utf8').split('\n').filter(Boolean));
    expect(lines.filter((l) => l.includes('"sent"'))).toEqual([]);
  });
});
