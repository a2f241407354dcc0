/**
 * Deterministic fault injection for exactly-once tests (docs/sandbox.md):
 * queue "the next matching API request answers 503" (or 429 with
 * Retry-After, or has its connection reset after being handled), where
 * --chaos only offers probabilities. Also keeps a log of API requests so a
 * test can prove that a refused command sent nothing.
 *
 * In process, through the `testing` handle startSandbox() returns
 * (`testing.injectFaults(…)`, `testing.requests()`; the log is kept only when
 * started with `recordRequests`). Over HTTP:
 * POST /_sandbox/faults {"faults": [{"status": 503, "method": "POST"}]}.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '../http/problem.js';

export interface Fault {
  /** Answer with this status instead of handling the request… */
  status?: 429 | 500 | 503;
  /** …(429 only) and this Retry-After, in seconds (default 1). */
  retryAfter?: number;
  /** Or: handle the request, then drop the connection instead of answering. */
  reset?: boolean;
  /**
   * Or: hold the request this long while it is being processed (after an Idem
   * request is recorded as in progress), so a concurrent duplicate meets 409
   * idempotency_request_in_progress.
   */
  holdMs?: number;
  /** Only requests with this method (default any). */
  method?: string;
  /** Only requests whose path, under /v1, starts with this (default any), e.g. '/patient-messages'. */
  path?: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  /** Its Idempotency-Key header, so a test can see that retries reuse it. */
  idempotencyKey: string | null;
  /** Fault applied to it, if any. */
  fault: 'status' | 'reset' | 'hold' | null;
}

/** One sandbox's queued faults, and (only if asked for) its log of API requests. */
export class FaultState {
  readonly queue: Fault[] = [];
  /** null unless the sandbox was started with `recordRequests`: a long-running sandbox keeps no log. */
  readonly log: LoggedRequest[] | null;
  /** At most this many records per page, whatever page[limit] asks (the API allows fewer); null: no cap. */
  pageCap: number | null = null;

  constructor(recordRequests: boolean) {
    this.log = recordRequests ? [] : null;
  }

  /** Queues faults; each applies once, to the first later API request it matches. */
  inject(...faults: Fault[]): void {
    this.queue.push(...faults);
  }
}

const CODES = { 429: 'rate_limited', 500: 'internal_error', 503: 'service_unavailable' } as const;

/** The control endpoint; the queue is applied by app.ts's one onRequest hook (applyQueuedFault). */
export function registerFaultRoutes(app: FastifyInstance, s: FaultState): void {
  app.post('/_sandbox/faults', async (request, reply) => {
    const body = (request.body ?? {}) as { faults?: unknown };
    if (!Array.isArray(body.faults) || !body.faults.every(isFault)) {
      throw new ProblemError(400, 'invalid_request', 'Send {"faults": [{"status": 429|500|503}, {"reset": true} or {"holdMs": N}, …]} with optional method and path.');
    }
    s.inject(...body.faults);
    reply.code(201);
    return { queued: s.queue.length };
  });
}

function isFault(value: unknown): value is Fault {
  if (!value || typeof value !== 'object') return false;
  const f = value as Record<string, unknown>;
  const statusOk = f.status === undefined || f.status === 429 || f.status === 500 || f.status === 503;
  const holdOk = f.holdMs === undefined || (typeof f.holdMs === 'number' && f.holdMs >= 0 && f.holdMs <= 60_000);
  const kinds = [f.status !== undefined, f.reset === true, f.holdMs !== undefined].filter(Boolean).length;
  const oneKind = kinds === 1 && holdOk;
  return statusOk && oneKind && (f.method === undefined || typeof f.method === 'string') && (f.path === undefined || typeof f.path === 'string');
}

/** For an API request (/v1/…): logs it (if asked) and applies the first queued fault it matches. */
export function applyQueuedFault(s: FaultState, request: FastifyRequest): void {
  if (s.pageCap !== null) request.sandboxPageCap = s.pageCap;
  // Nothing queued and no log (a sandbox outside tests): nothing to look at.
  if (s.queue.length === 0 && s.log === null) return;
  const path = request.url.slice(3).split('?')[0]!;
  const index = s.queue.findIndex(
    (f) => (!f.method || f.method.toUpperCase() === request.method) && (!f.path || path.startsWith(f.path)),
  );
  const fault = index >= 0 ? s.queue.splice(index, 1)[0]! : null;
  const key = request.headers['idempotency-key'];
  s.log?.push({
    method: request.method,
    path,
    idempotencyKey: (Array.isArray(key) ? key[0] : key) ?? null,
    fault: fault ? (fault.reset ? 'reset' : fault.holdMs !== undefined ? 'hold' : 'status') : null,
  });
  if (!fault) return;
  if (fault.holdMs !== undefined) {
    request.sandboxHoldMs = fault.holdMs;
    return;
  }
  if (fault.reset) {
    // app.ts drops the connection once the handler has answered.
    request.sandboxReset = true;
    return;
  }
  const status = fault.status ?? 503;
  const headers: Record<string, string> = status === 429 ? { 'retry-after': String(fault.retryAfter ?? 1) } : {};
  throw new ProblemError(status, CODES[status], 'Injected by the sandbox fault queue.', [], {}, headers);
}
