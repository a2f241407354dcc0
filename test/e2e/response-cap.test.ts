/**
 * docs/security.md, promise 9: a hostile or broken server cannot make msgctl read an
 * answer of any size. A response body is read up to 32 MiB (api/http.ts), past that the
 * command fails (exit 1) and the connection is dropped, whether the server declares the
 * size or streams without one; `msgctl api --max-body` raises the limit for one request.
 * Before, a 400 MB answer made `msgctl api` peak at 2.5 GB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isolatedEnv, msgctl } from '../helpers/cli.js';

const MiB = 1024 * 1024;
let server: Server;
let baseUrl: string;
/** Bytes the server managed to hand to the connection, per request. */
const sent: number[] = [];

/** `size` bytes of one JSON object, streamed in 1 MiB chunks; `declared`: with Content-Length. */
function answer(res: import('node:http').ServerResponse, size: number, declared: boolean): void {
  res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(size) } : {}) });
  const index = sent.push(0) - 1;
  const chunk = Buffer.alloc(MiB, 0x20); // spaces: JSON whitespace
  let left = size;
  const head = Buffer.from('{"name":"big","pad":"');
  const tail = Buffer.from('"}');
  const write = (): void => {
    while (left > 0) {
      const part = left === size ? head : left <= tail.length ? tail : chunk.subarray(0, Math.min(MiB, left - tail.length));
      left -= part.length;
      sent[index]! += part.length;
      if (!res.write(part)) return void res.once('drain', write);
    }
    res.end();
  };
  res.on('close', () => (left = 0));
  write();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const size = Number(url.searchParams.get('size') ?? 40 * MiB);
    answer(res, size, url.pathname.endsWith('/declared'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => server.close());

const env = () => isolatedEnv({ MSGCTL_BASE_URL: baseUrl, MSGCTL_API_KEY: 'msk_test_cap' });

describe('response bodies are capped', () => {
  it('a 400 MiB answer that declares its size is refused at once, and the connection dropped', async () => {
    const r = await msgctl(['api', 'GET', '/declared', '-F', `size=${400 * MiB}`], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/The answer to GET \/v1\/declared \(HTTP 200\) is over 32 MiB/);
    expect(r.stderr).toMatch(/--max-body/);
    expect(sent.at(-1)!).toBeLessThan(400 * MiB);
  });

  it('an answer streamed without a size is read up to 32 MiB, then refused (any command: org)', async () => {
    for (const args of [['api', 'GET', '/streamed', '-F', `size=${400 * MiB}`], ['org']]) {
      const r = await msgctl(args, { env: env(), timeout: 60_000 });
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/is over 32 MiB, more than msgctl reads/);
      expect(sent.at(-1)!).toBeLessThan(200 * MiB);
    }
  }, 120_000);

  it('msgctl api --max-body reads a larger answer whole; a bad size is a usage error', async () => {
    // 33 MiB: past the 32 MiB the cap would stop at, which is all this needs (every byte of it is
    // read, printed and parsed here, so more is only more CPU).
    const r = await msgctl(['api', 'GET', '/streamed', '-F', `size=${33 * MiB}`, '--max-body', '64M'], { env: env(), timeout: 60_000 });
    expect(r.exitCode, r.stderr.slice(0, 300)).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'big' });
    expect((await msgctl(['api', 'GET', '/streamed', '--max-body', 'lots'], { env: env() })).exitCode).toBe(2);
  }, 120_000);
});
