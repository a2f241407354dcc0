/**
 * Problems (RFC 9457, api-spec §7): the service's errors, which every layer
 * may throw (the domain included: it knows the spec's codes and statuses, not
 * HTTP). The HTTP layer's error handler renders them with the request id.
 * `type` links to the docs page describing the code.
 */
import type { FieldError, Problem } from '../contract/api.js';

/** The error statuses of api-spec §7.2, and no others: a client written from the spec branches on these. */
export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 422 | 429 | 500 | 503;

const TITLES: Record<ProblemStatus, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict',
  422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

export class ProblemError extends Error {
  constructor(
    readonly status: ProblemStatus,
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
      title: TITLES[this.status],
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
  /**
   * A query or path parameter that is unknown, repeated or malformed: 400 naming it in
   * `detail`, in `parameter` and in `field_errors` (docs/sandbox.md says why a 400 has them).
   */
  badParameter: (name: string, detail: string, fieldErrors?: FieldError[]) =>
    new ProblemError(400, 'invalid_request', detail, fieldErrors ?? [{ path: name, code: 'invalid', message: detail }], { parameter: name }),
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
