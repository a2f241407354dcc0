import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { NodeTransport } from '../../src/cli/api/node-transport.js';
import { readText } from '../../src/cli/api/http.js';

// The transport hands node:http a header list rather than an object; the request on the
// wire must be what an object gave: one Host, the body's Content-Length, names merged.
let server: Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
});

/** A raw TCP server that records each request head and answers 200 "ok", keeping the connection. */
async function rawServer(host: string): Promise<{ port: number; heads: string[] }> {
  const heads: string[] = [];
  server = createServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end !== -1; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        heads.push(head);
        buffered = buffered.slice(end + 4 + length);
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok');
      }
    });
  });
  server.listen(0, host);
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, heads };
}

const headerLines = (head: string) => head.split('\r\n').slice(1).map((line) => line.toLowerCase());

describe('NodeTransport request heads', () => {
  it('sends one Host, the body length and each header once (the last of a name, any case)', async () => {
    const { port, heads } = await rawServer('127.0.0.1');
    const transport = new NodeTransport();
    try {
      const url = new URL(`http://127.0.0.1:${port}/v1/patient-messages?x=1`);
      const body = '{"body":"Grüße"}';
      const response = await transport.request(url, {
        method: 'POST',
        headers: { Accept: 'text/plain', accept: 'application/json', 'Content-Length': '1', 'idempotency-key': 'k' },
        body,
      });
      expect(await readText(response.body)).toBe('ok');
      await transport.request(url, { method: 'GET', headers: {} }).then((r) => readText(r.body));
      await transport.request(url, { method: 'POST', headers: {} }).then((r) => readText(r.body));
    } finally {
      await transport.close();
    }
    expect(heads[0]!.split('\r\n')[0]).toBe('POST /v1/patient-messages?x=1 HTTP/1.1');
    const lines = headerLines(heads[0]!);
    expect(lines.filter((l) => l.startsWith('host:'))).toEqual([`host: 127.0.0.1:${port}`]);
    expect(lines.filter((l) => l.startsWith('accept:'))).toEqual(['accept: application/json']);
    expect(lines.filter((l) => l.startsWith('content-length:'))).toEqual([`content-length: ${Buffer.byteLength('{"body":"Grüße"}')}`]);
    expect(lines).toContain('idempotency-key: k');
    expect(lines).toContain('connection: keep-alive');
    expect(heads[1]!.split('\r\n')[0]).toBe('GET /v1/patient-messages?x=1 HTTP/1.1');
    expect(headerLines(heads[1]!).some((l) => l.startsWith('content-length:'))).toBe(false);
    expect(headerLines(heads[2]!)).toContain('content-length: 0'); // not chunked
    expect(headerLines(heads[2]!).some((l) => l.startsWith('transfer-encoding:'))).toBe(false);
  });

  it('names an IPv6 host in brackets, as the URL does', async () => {
    let raw;
    try {
      raw = await rawServer('::1');
    } catch {
      return; // no IPv6 loopback on this machine
    }
    const transport = new NodeTransport();
    try {
      const response = await transport.request(new URL(`http://[::1]:${raw.port}/v1/organization`), { method: 'GET', headers: {} });
      expect(await readText(response.body)).toBe('ok');
    } finally {
      await transport.close();
    }
    expect(headerLines(raw.heads[0]!)).toContain(`host: [::1]:${raw.port}`);
  });
});
