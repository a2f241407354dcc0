/**
 * When and how long to wait before retrying (product.md §2 "Retries").
 * Kept apart from the client so the rules are unit-testable without HTTP.
 */

/** Statuses worth retrying with backoff. 502/504 are included: gateways fail transiently like 503. */
export const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);

/** Connection-level failures that are safe to retry (the request carries an Idempotency-Key when it writes). */
export const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED', 'ECONNABORTED', 'MSGCTL_ATTEMPT_TIMEOUT',
]);

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, capMs: 8000 };

/** Exponential backoff with "equal jitter": half fixed, half random, so a retry never fires at once. */
export function backoffDelayMs(attempt: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const random = opts.random ?? Math.random;
  const exp = Math.min(opts.capMs, opts.baseMs * 2 ** attempt);
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Retry-After in delta-seconds or HTTP-date form; null when absent or unreadable. */
export function parseRetryAfterMs(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** A Retry-After longer than this is not waited out: the command fails (exit 7) and says when to retry. */
export const MAX_RETRY_AFTER_MS = 5 * 60 * 1000;
