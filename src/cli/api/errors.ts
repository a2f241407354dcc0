/**
 * What the API client throws. Every non-2xx answer becomes one ApiError that
 * keeps the whole problem (RFC 9457) so the renderer can show code, detail,
 * field errors and request id, and scripts can see extension members.
 */
import type { FieldError, Problem } from '../../contract/api.js';
import { ExitCode, exitCodeForStatus } from '../exit-codes.js';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly requestId: string | null;
  readonly fieldErrors: FieldError[];
  /** The problem as received (or as reconstructed from a non-problem body). */
  readonly problem: Problem;
  /** On a 429 that outlived the retries: how long the service asked to wait. */
  retryAfterMs: number | null = null;
  /** How many times the client sent the request (1 + the retries it made). */
  attempts = 1;
  /** The request's Idempotency-Key, when it had one (a write): the same key again is done at most once. */
  idempotencyKey: string | null = null;

  constructor(problem: Problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.name = 'ApiError';
    this.problem = problem;
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.requestId = problem.request_id || null;
    this.fieldErrors = Array.isArray(problem.field_errors) ? problem.field_errors : [];
  }

  get exitCode(): ExitCode {
    return exitCodeForStatus(this.status, this.code);
  }

  /** Extension members beyond §7.1, e.g. `candidates` on ambiguous_recipient. */
  get extensions(): Record<string, unknown> {
    const known = new Set(['type', 'title', 'status', 'code', 'detail', 'request_id', 'field_errors']);
    return Object.fromEntries(Object.entries(this.problem).filter(([k]) => !known.has(k)));
  }

  /**
   * Builds the error from a response, tolerating bodies that are not problems (proxies, HTML). The
   * HTTP status decides (RFC 9457 §3.1.2: a problem's `status` is advisory): a 404 whose body said
   * 409 exited 5. A body without a `code` gets `http_<status>`, not a code the service did not send
   * (a firewall's 403 page read as `insufficient_scope`): scripts branch on `code`.
   */
  static fromResponse(status: number, body: unknown, headerRequestId: string | null): ApiError {
    const obj = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const problem: Problem = {
      ...obj,
      type: typeof obj.type === 'string' ? obj.type : 'about:blank',
      title: typeof obj.title === 'string' ? obj.title : statusTitle(status),
      status,
      code: typeof obj.code === 'string' ? obj.code : `http_${status}`,
      // null when neither the body nor X-Request-Id gave one, as in msgctl's own problems (not "").
      request_id: typeof obj.request_id === 'string' && obj.request_id ? obj.request_id : headerRequestId,
      field_errors: Array.isArray(obj.field_errors) ? (obj.field_errors as FieldError[]) : [],
    };
    if (typeof obj.detail === 'string') problem.detail = obj.detail;
    else if (typeof body === 'string' && body.trim()) problem.detail = body.trim().slice(0, 300);
    return new ApiError(problem);
  }
}

/** The service could not be reached, or kept failing with 5xx, after every retry. */
export class NetworkError extends Error {
  readonly exitCode = ExitCode.Unavailable;
  constructor(
    message: string,
    readonly causeCode?: string,
    /** A write's Idempotency-Key: the same key again is done at most once. */
    readonly idempotencyKey: string | null = null,
  ) {
    super(message);
    this.name = 'NetworkError';
  }

  /**
   * Whether the request may have reached the service: every failure but those that happen before
   * anything is sent (no such host, nothing listening, no route). A reset or a timeout can come
   * after the service did the work.
   */
  get mayHaveArrived(): boolean {
    return !NEVER_SENT.has(this.causeCode ?? '');
  }
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function statusTitle(status: number): string {
  const titles: Record<number, string> = {
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
    409: 'Conflict', 422: 'Unprocessable Content', 429: 'Too Many Requests',
    500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  };
  return titles[status] ?? `HTTP ${status}`;
}
