/**
 * The `testing` handle startSandbox() returns: what tests need beyond the
 * product, kept out of the request path. It works from outside the app, on
 * the HTTP server's own `request` event: a listener put before fastify's sees
 * (and may rewrite) each request first, one put after it sees what the app
 * did with it (fastify runs its onRequest hooks, the fault queue's included,
 * synchronously inside its listener). A sandbox whose tests ask for neither
 * has no listener at all.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Fault } from '../contract/sandbox-faults.js';
import type { FaultState } from './routes/faults.js';

export interface LoggedRequest {
  method: string;
  /** Under /v1, without the query. */
  path: string;
  /** Its Idempotency-Key header, so a test can see that retries reuse it. */
  idempotencyKey: string | null;
  /** Fault the queue applied to it, if any. */
  fault: 'status' | 'reset' | 'hold' | null;
}

export interface SandboxTesting {
  /** Queues faults; each applies once, to the first later /v1 request it matches (as POST /_sandbox/faults does). */
  injectFaults(...faults: Fault[]): void;
  /** Starts keeping a log of /v1 requests (call it before the requests you want to see). */
  recordRequests(): void;
  /** Every /v1 request received since recordRequests(), oldest first. */
  requests(): readonly LoggedRequest[];
  /**
   * From now on, lowers the page[limit] a request gives to at most `records` (null: back to
   * normal), so a short list still spans many pages. Every list request msgctl sends gives one.
   */
  capPageSize(records: number | null): void;
}

export function testingHandle(server: Server, faults: FaultState): SandboxTesting {
  let log: LoggedRequest[] | null = null;
  let pageCap: number | null = null;
  let capping = false;

  return {
    injectFaults: (...list) => faults.inject(list),
    recordRequests() {
      if (log) return;
      const entries: LoggedRequest[] = (log = []);
      let pending: { entry: LoggedRequest; lastServed: unknown } | null = null;
      server.prependListener('request', (request: IncomingMessage) => {
        const url = request.url ?? '';
        if (!url.startsWith('/v1/')) return;
        const key = request.headers['idempotency-key'];
        const entry: LoggedRequest = {
          method: request.method ?? '',
          path: url.slice(3).split('?')[0]!,
          idempotencyKey: (Array.isArray(key) ? key[0] : key) ?? null,
          fault: null,
        };
        entries.push(entry);
        pending = { entry, lastServed: faults.served.at(-1) };
      });
      server.on('request', () => {
        if (!pending) return;
        const served = faults.served.at(-1);
        if (served && served !== pending.lastServed) {
          pending.entry.fault = served.fault.reset ? 'reset' : served.fault.holdMs !== undefined ? 'hold' : 'status';
        }
        pending = null;
      });
    },
    requests() {
      if (!log) throw new Error('Call testing.recordRequests() first to read the sandbox\'s request log.');
      return log;
    },
    capPageSize(records) {
      pageCap = records;
      if (capping) return;
      capping = true;
      server.prependListener('request', (request: IncomingMessage) => {
        if (pageCap !== null && request.url?.includes('?')) request.url = capPageLimit(request.url, pageCap);
      });
    },
  };
}

/** `url` with a numeric page[limit] (however it is percent-encoded) lowered to at most `cap`. */
function capPageLimit(url: string, cap: number): string {
  const [path, query] = [url.slice(0, url.indexOf('?')), url.slice(url.indexOf('?') + 1)];
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    if (eq < 0) return part;
    let name: string;
    try {
      name = decodeURIComponent(part.slice(0, eq));
    } catch {
      return part;
    }
    const value = Number(part.slice(eq + 1));
    return name === 'page[limit]' && Number.isInteger(value) && value > cap ? `${part.slice(0, eq)}=${cap}` : part;
  });
  return `${path}?${parts.join('&')}`;
}
