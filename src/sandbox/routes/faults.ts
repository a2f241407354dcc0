/**
 * Deterministic fault injection for exactly-once tests (docs/sandbox.md):
 * queue "the next matching API request answers 503" (or 429 with
 * Retry-After, or has its connection reset after being handled, or is held
 * in progress), where --chaos only offers probabilities. Over HTTP (and
 * `msgctl sandbox faults add|list|clear`): POST, GET and DELETE
 * /_sandbox/faults; in process, `testing.injectFaults(…)`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '../problem.js';
import { fieldsOf } from '../http/body-shape.js';
import { checkControlRequest } from '../http/control.js';
import { MAX_FAULT_HOLD_MS, type Fault, type ServedFault } from '../../contract/sandbox-faults.js';

/** How many served faults GET /_sandbox/faults shows (the most recent). */
const SERVED_KEPT = 50;

/** One sandbox's queued faults, and the most recent ones it served. */
export class FaultState {
  readonly queue: Fault[] = [];
  readonly served: ServedFault[] = [];

  /** Queues faults; each applies once, to the first later API request it matches. */
  inject(faults: readonly Fault[]): void {
    // One at a time: spreading ~65,000 faults (a 1 MB body) into push() overflowed the call stack.
    for (const fault of faults) this.queue.push(fault);
  }

  /** Empties the queue; says how many faults it held. */
  clear(): number {
    return this.queue.splice(0).length;
  }

  /** The first queued fault the request matches, taken off the queue and remembered as served. */
  take(request: FastifyRequest, path: string): Fault | null {
    const index = this.queue.findIndex(
      (f) => (!f.method || f.method.toUpperCase() === request.method) && (!f.path || path.startsWith(f.path)),
    );
    if (index < 0) return null;
    const fault = this.queue.splice(index, 1)[0]!;
    if (this.served.length === SERVED_KEPT) this.served.shift();
    this.served.push({ method: request.method, path, fault, request_id: request.id, at: new Date().toISOString() });
    return fault;
  }
}

const CODES = { 429: 'rate_limited', 500: 'internal_error', 503: 'service_unavailable' } as const;

const FAULT_FIELDS = fieldsOf('status', 'retryAfter', 'reset', 'holdMs', 'method', 'path');

/** The control endpoints; the queue is applied by app.ts's one onRequest hook (applyQueuedFault). */
export function registerFaultRoutes(app: FastifyInstance, s: FaultState): void {
  app.post('/_sandbox/faults', async (request, reply) => {
    checkControlRequest(request, { faults: { items: FAULT_FIELDS } });
    const body = (request.body ?? {}) as { faults?: unknown };
    if (!Array.isArray(body.faults) || !body.faults.every(isFault)) {
      throw new ProblemError(400, 'invalid_request', 'Send {"faults": [{"status": 429|500|503}, {"reset": true} or {"holdMs": N}, …]} with optional method and path.');
    }
    s.inject(body.faults);
    reply.code(201);
    return { queued: s.queue.length };
  });

  app.get('/_sandbox/faults', async (request) => {
    checkControlRequest(request);
    return { queued: s.queue, served: s.served };
  });

  app.delete('/_sandbox/faults', async (request) => {
    checkControlRequest(request);
    return { cleared: s.clear() };
  });
}

function isFault(value: unknown): value is Fault {
  if (!value || typeof value !== 'object') return false;
  const f = value as Record<string, unknown>;
  const statusOk = f.status === undefined || f.status === 429 || f.status === 500 || f.status === 503;
  const holdOk = f.holdMs === undefined || (typeof f.holdMs === 'number' && f.holdMs >= 0 && f.holdMs <= MAX_FAULT_HOLD_MS);
  const retryOk = f.retryAfter === undefined || (f.status === 429 && Number.isSafeInteger(f.retryAfter) && (f.retryAfter as number) >= 0);
  const kinds = [f.status !== undefined, f.reset === true, f.holdMs !== undefined].filter(Boolean).length;
  const oneKind = kinds === 1 && holdOk && retryOk;
  return statusOk && oneKind && (f.method === undefined || typeof f.method === 'string') && (f.path === undefined || typeof f.path === 'string');
}

/** For an API request (/v1/…): applies the first queued fault it matches. */
export function applyQueuedFault(s: FaultState, request: FastifyRequest): void {
  // Nothing queued (a sandbox outside tests, mostly): nothing to look at.
  if (s.queue.length === 0) return;
  const fault = s.take(request, request.url.slice(3).split('?')[0]!);
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
