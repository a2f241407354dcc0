/**
 * What a row's send came to, and whether that is final (docs/scripting.md,
 * "Outcomes").
 *
 * - sent: the service answered 201 (or replayed an earlier 201).
 * - skipped: a 422 about this patient that no re-run changes by itself
 *   (patient_opted_out, no_contact_method). Final.
 * - failed, final: any other 4xx for this row (ambiguous_recipient,
 *   not_found, validation_failed…): sending the same request again cannot help.
 * - failed, not final: 429/5xx after every retry, a lost connection, or the
 *   key still in progress. Not journalled, so the next run tries again with
 *   the same key (and gets the first answer if the first attempt did land).
 *
 * 401/403 are about the credential, not the row: the batch stops.
 */
import { ApiError, NetworkError } from '../api/errors.js';
import { isAbort } from '../output/render-error.js';

const SKIP_CODES = new Set(['patient_opted_out', 'no_contact_method']);

export type RowOutcome =
  | { outcome: 'sent'; messageId: string; requestId: string | null }
  | { outcome: 'skipped'; code: string; detail?: string; requestId: string | null }
  | { outcome: 'failed'; code: string; detail?: string; requestId: string | null; final: boolean };

export type Classified = RowOutcome | { outcome: 'fatal'; error: unknown } | { outcome: 'interrupted' };

export function classifyError(err: unknown): Classified {
  if (isAbort(err)) return { outcome: 'interrupted' };
  if (err instanceof ApiError) {
    const base = { code: err.code, detail: err.detail, requestId: err.requestId };
    if (err.status === 401 || err.status === 403) return { outcome: 'fatal', error: err };
    if (err.status === 422 && SKIP_CODES.has(err.code)) return { outcome: 'skipped', ...base };
    const final = err.status < 500 && err.status !== 429 && err.code !== 'idempotency_request_in_progress';
    return { outcome: 'failed', ...base, final };
  }
  if (err instanceof NetworkError) {
    return { outcome: 'failed', code: 'network_error', detail: err.message, requestId: null, final: false };
  }
  return { outcome: 'fatal', error: err };
}

/** Final outcomes are journalled and never sent again; the rest are retried by the next run. */
export function isFinal(result: RowOutcome): boolean {
  return result.outcome !== 'failed' || result.final;
}
