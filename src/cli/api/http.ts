/**
 * The HTTP seam under every client of the CLI (API, OAuth, export downloads):
 * one request in, status + headers + a streaming body out. The default
 * transport (transport.ts) is node:http/https with keep-alive, which Node has
 * already loaded at start-up; tests can inject their own through
 * `Services.transport()`.
 */
import type { Readable } from 'node:stream';

export interface HttpRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers as arrays (set-cookie). */
  headers: Record<string, string | string[] | undefined>;
  /** The body as it arrives: read it whole (readBody) or pipe it (downloads). */
  body: Readable;
}

export interface HttpTransport {
  request(url: URL, init: HttpRequest): Promise<HttpResponse>;
  /** Ends idle keep-alive connections. */
  close(): Promise<void>;
}

/**
 * The most of one response body msgctl holds in memory: far above any page, resource or
 * problem the API sends (a page of records is well under 1 MiB), far below what would
 * hurt (a hostile 400 MB answer made `msgctl api` peak at 2.5 GB). `msgctl api --max-body`
 * raises it for one request.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** A response body over its limit: reading stopped there (the connection is dropped). */
export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response is over ${formatBytes(limit)}`);
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * The whole body as one Buffer, at most `maxBytes` (else ResponseTooLargeError, at once
 * when the declared Content-Length says so); rejects when the connection breaks mid-body.
 */
export function readBody(body: Readable, maxBytes = MAX_RESPONSE_BYTES, declaredLength?: string | string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (body.errored) return reject(body.errored);
    const tooLarge = () => {
      body.destroy();
      reject(new ResponseTooLargeError(maxBytes));
    };
    if (Number(declaredLength) > maxBytes) return tooLarge();
    const chunks: Buffer[] = [];
    let total = 0;
    body.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) return tooLarge();
      chunks.push(chunk);
    });
    body.once('error', reject);
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
  });
}

export async function readText(body: Readable, maxBytes = MAX_RESPONSE_BYTES): Promise<string> {
  return (await readBody(body, maxBytes)).toString('utf8');
}

/** 33554432 → "32 MiB". */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
