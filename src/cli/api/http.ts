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

/** The whole body as one Buffer; rejects when the connection breaks mid-body. */
export function readBody(body: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (body.errored) return reject(body.errored);
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.once('error', reject);
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
  });
}

export async function readText(body: Readable): Promise<string> {
  return (await readBody(body)).toString('utf8');
}
