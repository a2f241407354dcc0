/**
 * Problems (RFC 9457, api-spec §7). Domain code throws ProblemError; the app's
 * error handler renders it with the request id. `type` links to the docs page
 * describing the code.
 */
import type { FieldError, Problem } from '../../contract/api.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 410: 'Gone',
  413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 431: 'Request Header Fields Too Large', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail?: string,
    readonly fieldErrors: FieldError[] = [],
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? code);
  }

  /** The body the contract promises (src/contract/api.ts Problem), so both sides read the same shape. */
  toBody(requestId: string): Problem {
    return {
      type: `https://docs.msgctl.dev/errors#${this.code}`,
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      code: this.code,
      ...(this.detail ? { detail: this.detail } : {}),
      request_id: requestId,
      field_errors: this.fieldErrors,
      ...this.extensions,
    };
  }
}

export const problems = {
  invalidRequest: (detail: string) => new ProblemError(400, 'invalid_request', detail),
  notFound: (what = 'Resource') => new ProblemError(404, 'not_found', `${what} not found.`),
  validation: (fieldErrors: FieldError[], detail = 'The request failed validation.') =>
    new ProblemError(422, 'validation_failed', detail, fieldErrors),
  conflict: (code: string, detail: string, extensions: Record<string, unknown> = {}) =>
    new ProblemError(409, code, detail, [], extensions),
  unprocessable: (code: string, detail: string) => new ProblemError(422, code, detail),
};

/** Collects field errors while validating a body; throws one 422 with all of them. */
export class FieldErrors {
  readonly items: FieldError[] = [];
  add(path: string, code: string, message: string): void {
    this.items.push({ path, code, message });
  }
  throwIfAny(): void {
    if (this.items.length) throw problems.validation(this.items);
  }
}
