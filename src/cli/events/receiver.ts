/**
 * The local webhook receiver behind `msgctl events listen` (docs/events.md):
 * an HTTP server on 127.0.0.1 that accepts a delivery only when its Standard
 * Webhooks signature matches and its timestamp is fresh, reports each event
 * once however often it is delivered, and optionally hands it on to a local
 * app, answering the service with the app's status so the service's retries
 * cover the app too.
 *
 * Answers: 200 accepted (or a duplicate of an accepted one); 400 missing
 * headers, stale timestamp or a body that is not an event; 401 signature
 * mismatch; 405 not a POST; 413 too large; 503 no secret yet; with
 * forwarding, the app's status, or 502 when the app cannot be reached.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TOLERANCE_SECONDS, HEADER_ID, verify } from '../webhooks/signature.js';
import { SeenIds } from './seen-ids.js';
import { forwardDelivery } from './forward.js';

const MAX_BODY_BYTES = 1024 * 1024;

export interface ReceivedEvent {
  id: string;
  type: string;
  delivery_attempt?: number;
  [field: string]: unknown;
}

export interface ReceiverOptions {
  port: number;
  toleranceSeconds?: number;
  forwardTo?: URL;
  /** A verified event seen for the first time. */
  onEvent: (event: ReceivedEvent) => void | Promise<void>;
  /** One line for stderr: rejections, duplicates, forwarding trouble. */
  onNote: (line: string) => void;
}

export interface Receiver {
  /** http://127.0.0.1:PORT/webhooks */
  url: string;
  port: number;
  /** Until set, deliveries get 503 (the endpoint is still being registered). */
  setSecret(secret: string): void;
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  let secret: string | null = null;
  const reported = new SeenIds();
  const accepted = new SeenIds();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return answer(res, 405, { error: 'POST webhook deliveries here.' }, { allow: 'POST' });
    const body = await readBody(req);
    if (body === null) return answer(res, 413, { error: 'Body too large.' });
    if (secret === null) return answer(res, 503, { error: 'Not ready: no signing secret yet.' });

    const check = verify(secret, req.headers, body, { toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS });
    const label = String(req.headers[HEADER_ID] ?? '(no id)');
    if (!check.ok) {
      options.onNote(`rejected delivery ${label}: ${check.message}`);
      return answer(res, check.reason === 'bad_signature' ? 401 : 400, { error: check.message });
    }
    let event: ReceivedEvent;
    try {
      event = JSON.parse(body) as ReceivedEvent;
      if (!event || typeof event !== 'object' || typeof event.type !== 'string') throw new Error('not an event');
    } catch {
      options.onNote(`rejected delivery ${check.id}: the signed body is not an event envelope`);
      return answer(res, 400, { error: 'Body is not a JSON event envelope.' });
    }

    if (reported.has(check.id)) {
      options.onNote(`duplicate delivery of ${check.id} (attempt ${event.delivery_attempt ?? '?'}): already printed`);
    } else {
      reported.add(check.id);
      await options.onEvent(event);
    }

    if (!options.forwardTo || accepted.has(check.id)) {
      accepted.add(check.id);
      return answer(res, 200, { received: true });
    }
    const forwarded = await forwardDelivery(options.forwardTo, req.headers, body);
    if (forwarded.status === null) {
      options.onNote(`could not forward ${check.id} to ${options.forwardTo}: ${forwarded.error}; answered 502 so the service retries`);
      return answer(res, 502, { error: `Forwarding failed: ${forwarded.error}` });
    }
    if (forwarded.status >= 200 && forwarded.status < 300) accepted.add(check.id);
    else options.onNote(`${options.forwardTo} answered ${forwarded.status} for ${check.id}; passed back so the service retries`);
    res.writeHead(forwarded.status, { 'content-type': forwarded.contentType ?? 'text/plain; charset=utf-8' });
    res.end(forwarded.body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      options.onNote(`error handling a delivery: ${err.message}`);
      if (!res.headersSent) answer(res, 500, { error: 'Listener error.' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    setSecret(value: string) {
      secret = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The whole body as text, or null once it passes the size limit. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
