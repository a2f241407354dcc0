/**
 * `msgctl sandbox faults add|list|clear`: the running sandbox's fault queue
 * (docs/sandbox.md "Fault injection"), checked here before anything is sent.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { controlRequest, sandboxControl } from './control.js';
import { listOf, nested, type Shape } from '../api/answer-shape.js';
import { MAX_FAULT_HOLD_MS, type Fault, type ServedFault } from '../../contract/sandbox-faults.js';

/** What `faults list` reads of GET /_sandbox/faults. */
const FAULT_LISTS: Shape<{ queued: Fault[]; served: ServedFault[] }> = {
  name: "the sandbox's faults",
  // A fault's members are all optional (contract/sandbox-faults.ts): each must be an object.
  fields: { queued: listOf({}), served: listOf({ fault: nested({}), method: 'string', path: 'string', request_id: 'string', at: 'string' }) },
};

/** One row of `faults list`: a queued fault, or one the sandbox served. */
export interface FaultRow extends Fault {
  state: 'queued' | 'served';
  /** Served: the request it was served to (its method and path, its X-Request-Id) and when. */
  request?: { method: string; path: string; request_id: string; at: string };
}

export interface AddFlags {
  status?: string;
  reset?: boolean;
  hold?: number;
  retryAfter?: number;
  method?: string;
  path?: string;
  count?: number;
}

/** The fault the flags describe; a usage error when they do not describe exactly one. */
export function faultFromFlags(flags: AddFlags): Fault {
  const kinds = [flags.status !== undefined, Boolean(flags.reset), flags.hold !== undefined].filter(Boolean).length;
  if (kinds !== 1) {
    throw new UsageError('Give exactly one of --status, --reset or --hold.', [
      'Example: msgctl sandbox faults add --status 503 --method POST --path /patient-messages',
    ]);
  }
  const fault: Fault = {};
  if (flags.status !== undefined) fault.status = Number(flags.status) as Fault['status'];
  if (flags.reset) fault.reset = true;
  if (flags.hold !== undefined) {
    if (!Number.isInteger(flags.hold) || flags.hold > MAX_FAULT_HOLD_MS) throw new UsageError(`--hold must be a whole number of milliseconds up to ${MAX_FAULT_HOLD_MS}.`);
    fault.holdMs = flags.hold;
  }
  if (flags.retryAfter !== undefined) {
    if (fault.status !== 429) throw new UsageError('--retry-after goes with --status 429 only.');
    if (!Number.isInteger(flags.retryAfter)) throw new UsageError('--retry-after must be a whole number of seconds.');
    fault.retryAfter = flags.retryAfter;
  }
  if (flags.method !== undefined) {
    if (!/^[A-Za-z]+$/.test(flags.method)) throw new UsageError(`--method must be an HTTP method such as POST (got "${flags.method}").`);
    fault.method = flags.method.toUpperCase();
  }
  if (flags.path !== undefined) {
    // The queue matches paths under /v1; a path copied with its /v1 means the same.
    const path = flags.path.replace(/^\/v1(?=\/)/, '');
    if (!path.startsWith('/')) throw new UsageError(`--path must start with / (got "${flags.path}"), e.g. /patient-messages.`);
    fault.path = path;
  }
  return fault;
}

export async function addFaults(ctx: Context, flags: AddFlags): Promise<void> {
  const fault = faultFromFlags(flags);
  const count = flags.count ?? 1;
  const control = await sandboxControl(ctx);
  const answer = await controlRequest(ctx, control, 'POST', '/_sandbox/faults', { name: 'the number of queued faults', fields: { queued: 'number' } }, { faults: Array.from({ length: count }, () => fault) });
  await ctx.out.resource({ added: count, queued: answer.queued }, [
    { header: 'added', value: (r) => r.added },
    { header: 'queued', value: (r) => r.queued },
  ]);
}

export async function listFaults(ctx: Context): Promise<void> {
  const control = await sandboxControl(ctx);
  const answer = await controlRequest<{ queued: Fault[]; served: ServedFault[] }>(ctx, control, 'GET', '/_sandbox/faults', FAULT_LISTS);
  const rows: FaultRow[] = [
    ...answer.queued.map((f): FaultRow => ({ state: 'queued', ...f })),
    ...answer.served.map((s): FaultRow => ({ state: 'served', ...s.fault, request: { method: s.method, path: s.path, request_id: s.request_id, at: s.at } })),
  ];
  await ctx.out.list(rows, [
    { header: 'state', value: (r) => r.state },
    { header: 'fault', value: describeFault },
    { header: 'method', value: (r) => r.method ?? 'any' },
    { header: 'path', value: (r) => r.path ?? 'any' },
    { header: 'served_to', value: (r) => (r.request ? `${r.request.method} ${r.request.path}` : ''), drop: 2 },
    { header: 'request_id', value: (r) => r.request?.request_id ?? '', drop: 1 },
    { header: 'at', value: (r) => r.request?.at ?? '', time: true, drop: 3 },
  ], { empty: 'No faults queued or served.' });
}

export async function clearFaults(ctx: Context): Promise<void> {
  const control = await sandboxControl(ctx);
  const answer = await controlRequest(ctx, control, 'DELETE', '/_sandbox/faults', { name: 'the number of faults cleared', fields: { cleared: 'number' } });
  await ctx.out.resource(answer, [{ header: 'cleared', value: (r) => r.cleared }]);
}

function describeFault(f: Fault): string {
  if (f.status !== undefined) return f.status === 429 ? `429 (Retry-After ${f.retryAfter ?? 1})` : String(f.status);
  if (f.reset) return 'reset';
  return `hold ${f.holdMs}ms`;
}
