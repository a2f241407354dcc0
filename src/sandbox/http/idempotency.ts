/**
 * Idempotency per api-spec §4.10: the first result for a key is replayed for
 * 24 hours; the same key with a different method, path or body is 409
 * idempotency_key_reused; a duplicate while the first still runs is 409
 * idempotency_request_in_progress. 5xx and 429 results are not kept, so a
 * retry after a server error really runs again.
 */
import { createHash } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import { LIMITS } from '../../contract/api.js';
import { ProblemError, problems, type ProblemStatus } from '../problem.js';
import { looksLikeUuid } from '../validation/formats.js';


export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body)}`).digest('hex');
}

/** JSON with sorted keys, so the same body in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export interface StoredProblem {
  problem: { status: ProblemStatus; code: string; detail?: string; field_errors: unknown[]; extensions: Record<string, unknown> };
}

/** What a handler answered (route.ts's ApiResult, by shape: this module sits below route.ts). */
interface Result {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export async function withIdempotency(
  sb: SandboxContext,
  scope: string,
  keyHeader: string | undefined,
  print: string,
  run: () => Promise<Result>,
): Promise<Result> {
  if (!keyHeader) throw problems.invalidRequest('This request requires an Idempotency-Key header (a UUID).');
  if (!looksLikeUuid(keyHeader)) throw problems.invalidRequest('Idempotency-Key must be a UUID.');
  const id = `${scope}:${keyHeader.toLowerCase()}`;
  const table = sb.db.idempotency;
  const now = sb.clock.now();
  const existing = table.get(id);
  if (existing && now - existing.createdMs < LIMITS.idempotencyWindowMs) {
    if (existing.fingerprint !== print) {
      throw problems.conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
    }
    if (existing.state === 'in_progress') {
      throw problems.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.');
    }
    const stored = existing.body as StoredProblem | { result: unknown };
    if ('problem' in stored) {
      const p = stored.problem;
      throw new ProblemError(p.status, p.code, p.detail, p.field_errors as never, p.extensions, { 'idempotent-replayed': 'true' });
    }
    return { status: existing.status, body: stored.result, headers: { 'idempotent-replayed': 'true' } };
  }
  table.put({ id, fingerprint: print, state: 'in_progress', status: 0, body: null, createdMs: now });
  try {
    const result = await run();
    if (result.status < 500 && result.status !== 429) {
      table.put({ id, fingerprint: print, state: 'done', status: result.status, body: { result: result.body }, createdMs: now });
    } else table.delete(id);
    sb.store.changed();
    return result;
  } catch (err) {
    if (err instanceof ProblemError && err.status < 500 && err.status !== 429) {
      const stored: StoredProblem = {
        problem: { status: err.status, code: err.code, detail: err.detail, field_errors: err.fieldErrors, extensions: err.extensions },
      };
      table.put({ id, fingerprint: print, state: 'done', status: err.status, body: stored, createdMs: now });
    } else table.delete(id);
    sb.store.changed();
    throw err;
  }
}

/** Drops records past the 24-hour window (called periodically). */
export function pruneIdempotency(sb: SandboxContext): void {
  const cutoff = sb.clock.now() - LIMITS.idempotencyWindowMs;
  for (const rec of sb.db.idempotency.filter((r) => r.createdMs < cutoff)) sb.db.idempotency.delete(rec.id);
}
