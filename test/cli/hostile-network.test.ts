/**
 * docs/security.md, promises 2 and 3: the credential goes to the configured
 * API and nowhere else, and never through a proxy in clear text.
 *
 * Capture servers on loopback stand in for the API, an attacker's host and a
 * proxy; each records what reaches it, so "nothing was sent" is observed,
 * not assumed. In-process (argv to exit code, the real transport and proxy
 * agent); test/e2e/hostile-network.test.ts runs one case of each promise
 * through the built binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isolatedEnv, msgctl } from '../helpers/in-process.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

interface Capture {
  seen: Seen[];
  port: number;
  server: Server;
}

/** An HTTP server that records every request and answers a small JSON object. */
async function capture(host: string): Promise<Capture> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"org_capture","name":"Capture"}');
  });
  // A proxy is asked to CONNECT: recorded, then refused (a tunnel to plain http would carry the key in clear).
  server.on('connect', (req, socket) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  return { seen, port: (server.address() as AddressInfo).port, server };
}

const KEY = 'sk_test_hostile_network_0123456789';
let api: Capture;
let attacker: Capture;
let proxy: Capture;
let api2: Capture;
let api6: Capture;

beforeAll(async () => {
  [api, attacker, proxy, api2, api6] = await Promise.all([
    capture('127.0.0.1'),
    capture('127.0.0.1'),
    capture('127.0.0.1'),
    capture('127.0.0.2'),
    capture('::1'),
  ]);
});

afterAll(() => {
  for (const c of [api, attacker, proxy, api2, api6]) c?.server.close();
});

const env = (extra: Record<string, string | undefined> = {}) =>
  isolatedEnv({ MSGCTL_BASE_URL: `http://127.0.0.1:${api.port}/v1`, MSGCTL_API_KEY: KEY, ...extra });

describe('msgctl api sends the credential only under the base URL', () => {
  const host = () => `127.0.0.1:${attacker.port}`;
  const attempts = () => [
    `\\\\${host()}/steal`,
    `/\\\\${host()}/steal`,
    `/\\/${host()}/steal`,
    `\\/${host()}/steal`,
    `/\\${host()}/steal`,
    `%5c%5c${host()}/steal`,
    `%5C%5C${host()}/steal`,
    '../../_sandbox/credentials',
    '/../_sandbox/credentials',
    '%2e%2e/%2e%2e/_sandbox/credentials',
    '.%2E/_sandbox/credentials',
    'patients/..%2f..%2f_sandbox/credentials',
    'patients/%2F%2F' + host(),
    './organization',
  ];

  it('refuses every escape with exit 2 before any request', async () => {
    for (const path of attempts()) {
      for (const args of [['api', 'GET', path], ['api', 'GET', path, '--paginate']]) {
        const r = await msgctl(args, { env: env() });
        expect(r.exitCode, `${path}: ${r.stderr}`).toBe(2);
        expect(r.stderr).not.toContain(KEY);
      }
    }
    expect(attacker.seen).toEqual([]);
    expect(api.seen).toEqual([]);
  });

  it('still sends an ordinary path to the API, under its prefix', async () => {
    const r = await msgctl(['api', 'GET', '/organization'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(api.seen.map((s) => s.url)).toEqual(['/v1/organization']);
    expect(api.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    api.seen.length = 0;
  });
});

describe('loopback never goes through a proxy', () => {
  const proxied = () => ({ HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` });

  it('127.0.0.2 and [::1] are reached directly, as 127.0.0.1 is', async () => {
    for (const [baseUrl, server] of [
      [`http://127.0.0.2:${api2.port}/v1`, api2],
      [`http://[::1]:${api6.port}/v1`, api6],
      [`http://127.0.0.1:${api.port}/v1`, api],
    ] as const) {
      const r = await msgctl(['api', 'GET', '/organization', '--base-url', baseUrl], { env: env(proxied()) });
      expect(r.exitCode, `${baseUrl}: ${r.stderr}`).toBe(0);
      expect(server.seen.at(-1)?.headers.authorization, baseUrl).toBe(`Bearer ${KEY}`);
    }
    expect(proxy.seen).toEqual([]);
  });
});
