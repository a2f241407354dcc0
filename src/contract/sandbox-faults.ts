/**
 * The sandbox's fault queue as both sides see it on the wire (POST, GET and DELETE
 * /_sandbox/faults; docs/sandbox.md "Fault injection"): the sandbox serves it, and
 * `msgctl sandbox faults add|list|clear` drives it. Each side checks a fault with its own code.
 */

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

/** A fault as GET /_sandbox/faults shows it once it was served. */
export interface ServedFault {
  method: string;
  /** Under /v1, without the query. */
  path: string;
  fault: Fault;
  /** The X-Request-Id of the request it was served to. */
  request_id: string;
  at: string;
}

/** The longest a hold may last, in milliseconds. */
export const MAX_FAULT_HOLD_MS = 60_000;
