/**
 * The API client against a real HTTP server on 127.0.0.1 whose answers each
 * test scripts: retries and their keys, Retry-After, the shared 429 gate,
 * timeouts, refresh after 401, proxies and pagination.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { ApiClient, type CredentialProvider } from '../../src/cli/api/client.js';
import { ApiError, NetworkError } from '../../src/cli/api/errors.js';
import { checkBaseUrl, createTransport, proxyFor } from '../../src/cli/api/transport.js';
import { backoffDelayMs, parseRetryAfterMs } from '../../src/cli/api/retry-policy.js';
import type { Shape } from '../../src/cli/api/answer-shape.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const servers: Server[] = [];
const NUMBERED: Shape<{ id: number }> = { name: 'a numbered record', fields: { id: 'number' } };

async function serve(handler: Handler): Promise<{ url: string; requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string; at: number }[] }> {
  const requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string; at: number }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() });
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', 'x-request-id': 'req-' + status, ...headers });
  res.end(JSON.stringify(body));
}

const problem = (status: number, code: string) => ({ type: 'about:blank', title: 't', status, code, request_id: 'rid-' + code, field_errors: [] });

function client(url: string, opts: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  return new ApiClient({
    baseUrl: opts.baseUrl ?? checkBaseUrl(url, true),
    credential: { authorization: async () => 'Bearer test-token' },
    transport: createTransport({}),
    userAgent: 'msgctl-test',
    timeoutMs: 2000,
    retries: 4,
    backoff: { baseMs: 10, capMs: 40 },
    ...opts,
  });
}

describe('retry policy', () => {
  it('backs off exponentially with jitter inside [half, full] of the step, capped', () => {
    expect(backoffDelayMs(0, { baseMs: 100, capMs: 1000, random: () => 0 })).toBe(50);
    expect(backoffDelayMs(3, { baseMs: 100, capMs: 1000, random: () => 1 })).toBe(800);
    expect(backoffDelayMs(10, { baseMs: 100, capMs: 1000, random: () => 1 })).toBe(1000);
  });
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfterMs('2')).toBe(2000);
    expect(parseRetryAfterMs(new Date(Date.now() + 3000).toUTCString(), Date.now())).toBeGreaterThan(1000);
    expect(parseRetryAfterMs('soon')).toBeNull();
  });
});

describe('ApiClient', () => {
  it('retries 503 with the same Idempotency-Key and returns the eventual success', async () => {
    let n = 0;
    const s = await serve((_req, res) => (++n < 3 ? json(res, 503, problem(503, 'service_unavailable')) : json(res, 201, { ok: true })));
    const data = await client(s.url).post('/patient-messages', { body: 'x' }, 'a2d1c7b0-3f55-4c51-9d3e-1f0e2b3c4d5e');
    expect(data).toEqual({ ok: true });
    expect(s.requests).toHaveLength(3);
    expect(new Set(s.requests.map((r) => r.headers['idempotency-key']))).toEqual(new Set(['a2d1c7b0-3f55-4c51-9d3e-1f0e2b3c4d5e']));
    expect(s.requests[0]!.headers.authorization).toBe('Bearer test-token');
    expect(s.requests[0]!.headers['user-agent']).toBe('msgctl-test');
  });

  it('waits Retry-After on 429 before retrying', async () => {
    let n = 0;
    const s = await serve((_req, res) => (++n === 1 ? json(res, 429, problem(429, 'rate_limited'), { 'retry-after': '1' }) : json(res, 200, {})));
    await client(s.url).get('/organization');
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('holds every concurrent request while a 429 is waited out (no thundering herd)', async () => {
    let limited = true;
    const s = await serve((_req, res) => {
      if (limited) {
        limited = false;
        setTimeout(() => json(res, 429, problem(429, 'rate_limited'), { 'retry-after': '1' }), 50);
      } else json(res, 200, {});
    });
    const c = client(s.url);
    const first = c.get('/a');
    // Until the client has read the 429 and holds requests back (not a fixed time a loaded machine may need).
    await expect.poll(() => (c as unknown as { notBefore: number }).notBefore > Date.now(), { timeout: 10_000, interval: 5 }).toBe(true);
    const started = Date.now();
    await Promise.all([first, c.get('/b'), c.get('/c')]);
    const after = s.requests.filter((r) => r.at >= started);
    expect(after.length).toBeGreaterThanOrEqual(3);
    for (const r of after) expect(r.at - started).toBeGreaterThanOrEqual(700);
  });

  it('does not retry other 4xx and keeps the whole problem', async () => {
    const s = await serve((_req, res) =>
      json(res, 409, { ...problem(409, 'ambiguous_recipient'), detail: 'two patients', candidates: [{ id: 'p1' }, { id: 'p2' }] }),
    );
    const err: any = await client(s.url).post('/patient-messages', {}, 'k').catch((e: any) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(1);
    expect(err.code).toBe('ambiguous_recipient');
    expect(err.exitCode).toBe(5);
    expect(err.requestId).toBe('rid-ambiguous_recipient');
    expect(err.extensions.candidates).toHaveLength(2);
  });

  it('gives up after --retries with exit code 8 for 5xx and 7 for 429', async () => {
    const s = await serve((_req, res) => json(res, 500, problem(500, 'internal_error')));
    const err: any = await client(s.url, { retries: 2 }).get('/x').catch((e: any) => e);
    expect(s.requests).toHaveLength(3);
    expect(err.exitCode).toBe(8);
    const s2 = await serve((_req, res) => json(res, 429, problem(429, 'rate_limited'), { 'retry-after': '0' }));
    const err2: any = await client(s2.url, { retries: 1 }).get('/x').catch((e: any) => e);
    expect(s2.requests).toHaveLength(2);
    expect(err2.exitCode).toBe(7);
  });

  it('takes the request id from the header when the body is not a problem', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'hdr-id' });
      res.end('<html>bad gateway</html>');
    });
    const err: any = await client(s.url, { retries: 0 }).get('/x').catch((e: any) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.requestId).toBe('hdr-id');
    expect(err.status).toBe(502);
  });

  it('retries refused connections and then fails with NetworkError (exit 8)', async () => {
    const s = await serve(() => {});
    await Promise.all(servers.splice(0).map((srv) => new Promise((r) => srv.close(r))));
    const err: any = await client(s.url, { retries: 2 }).get('/x').catch((e: any) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.exitCode).toBe(8);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('times out a hung attempt and retries it', async () => {
    let n = 0;
    const s = await serve((_req, res) => {
      if (++n === 1) return; // never answer
      json(res, 200, { ok: 1 });
    });
    const data = await client(s.url, { timeoutMs: 200 }).get('/slow');
    expect(data).toEqual({ ok: 1 });
    expect(s.requests).toHaveLength(2);
  });

  it('refreshes the credential once after 401 and retries', async () => {
    let token = 'old';
    const credential: CredentialProvider = {
      authorization: async () => `Bearer ${token}`,
      refresh: async () => {
        token = 'new';
        return true;
      },
    };
    const s = await serve((req, res) =>
      req.headers.authorization === 'Bearer new' ? json(res, 200, { ok: 1 }) : json(res, 401, problem(401, 'invalid_token')),
    );
    expect(await client(s.url, { credential }).get('/me')).toEqual({ ok: 1 });
    expect(s.requests.map((r) => r.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('pages with page[limit]/page[after] and stops at the limit', async () => {
    const s = await serve((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const after = Number(url.searchParams.get('page[after]') ?? 0);
      const limit = Number(url.searchParams.get('page[limit]'));
      const data = Array.from({ length: limit }, (_, i) => ({ id: after + i + 1 })).filter((r) => r.id <= 250);
      const last = data.at(-1)?.id ?? 250;
      json(res, 200, { data, pagination: { next_cursor: last < 250 ? String(last) : null, has_more: last < 250 } });
    });
    const all = [];
    for await (const r of client(s.url).paginate('/patients', {}, { shape: NUMBERED })) all.push(r.id);
    expect(all).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    const some = [];
    for await (const r of client(s.url).paginate('/patients', {}, { limit: 120, shape: NUMBERED })) some.push(r.id);
    expect(some).toHaveLength(120);
  });

  it('goes through HTTP_PROXY, skips it for NO_PROXY hosts, and never proxies loopback', async () => {
    const proxied: string[] = [];
    const target = await serve((_req, res) => json(res, 200, { via: 'direct' }));
    const targetPort = new URL(target.url).port;
    // A real forward proxy that tunnels CONNECT (undici, which carries proxied requests, tunnels by default); it knows
    // "api.test" as our local target, so a non-loopback name can be proxied in a test.
    const proxy = createServer((req, res) => {
      proxied.push(req.url!);
      json(res, 200, { via: 'proxy' });
    });
    proxy.on('connect', (req, socket, head) => {
      proxied.push(`CONNECT ${req.url}`);
      const upstream = connect(Number(targetPort), '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    servers.push(proxy);
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const remoteUrl = `http://api.test:${targetPort}/v1`;
    const anonymous = (url: string, env: Record<string, string>) =>
      client(url, { baseUrl: checkBaseUrl(url, false), credential: { authorization: async () => null }, transport: createTransport(env) });

    expect(await anonymous(remoteUrl, { HTTP_PROXY: proxyUrl }).get('/organization')).toEqual({ via: 'direct' });
    expect(proxied).toEqual([`CONNECT api.test:${targetPort}`]);

    const bypass = anonymous(remoteUrl, { HTTP_PROXY: proxyUrl, NO_PROXY: 'api.test' });
    await expect(bypass.get('/organization')).rejects.toThrow(/api\.test/); // went direct: the name does not resolve
    expect(proxied).toHaveLength(1);

    // Loopback is never proxied, even without NO_PROXY: a plain-http key must not leave the machine.
    expect(await client(target.url, { transport: createTransport({ HTTP_PROXY: proxyUrl }) }).get('/organization')).toEqual({ via: 'direct' });
    expect(proxied).toHaveLength(1);
  });

  it('picks the proxy per target as undici and curl read HTTP(S)_PROXY and NO_PROXY, and never for loopback', () => {
    const p = 'http://proxy.test:3128';
    const at = (url: string, env: Record<string, string>) => proxyFor(new URL(url), env);
    expect(at('https://api.example.com/v1', {})).toBeNull();
    expect(at('https://api.example.com/v1', { HTTPS_PROXY: p })).toBe(p);
    expect(at('https://api.example.com/v1', { https_proxy: p })).toBe(p);
    expect(at('https://api.example.com/v1', { HTTP_PROXY: p })).toBe(p); // https falls back to HTTP_PROXY
    expect(at('http://api.example.com/v1', { HTTPS_PROXY: p })).toBeNull();
    for (const noProxy of ['*', 'api.example.com', 'example.com', '.example.com', '*.example.com', 'other.test, example.com', 'other.test example.com:443']) {
      expect(at('https://api.example.com/v1', { HTTPS_PROXY: p, NO_PROXY: noProxy }), noProxy).toBeNull();
    }
    for (const noProxy of ['ample.com', 'api.example.com:8443', 'other.test']) {
      expect(at('https://api.example.com/v1', { HTTPS_PROXY: p, NO_PROXY: noProxy }), noProxy).toBe(p);
    }
    for (const loopback of ['http://127.0.0.1:4010/v1', 'http://127.9.8.7/v1', 'http://localhost:1/v1', 'http://[::1]:4010/v1', 'https://LOCALHOST/v1']) {
      expect(at(loopback, { HTTP_PROXY: p, HTTPS_PROXY: p }), loopback).toBeNull();
    }
  });

  it('refuses credentials over plain http except to loopback', () => {
    expect(() => checkBaseUrl('http://api.example.com/v1', true)).toThrow(/plain http/);
    expect(checkBaseUrl('http://127.0.0.1:4010/v1', true).href).toBe('http://127.0.0.1:4010/v1/');
    expect(checkBaseUrl('http://[::1]:4010/v1', true).hostname).toBe('[::1]');
    expect(checkBaseUrl('https://api.example.com/v1', true).protocol).toBe('https:');
  });
});
