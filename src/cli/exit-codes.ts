/** Exit codes of product.md §2, in one place. Scripts branch on these. */
export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  Auth: 3,
  NotFound: 4,
  Conflict: 5,
  Validation: 6,
  RateLimited: 7,
  Unavailable: 8,
  /** A batch finished but some items failed (batch send, import, recipients add). */
  Partial: 10,
  /** Ctrl-C: the shell convention 128 + SIGINT. */
  Interrupted: 130,
  /** SIGTERM: 128 + 15. */
  Terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const AUTH_CODES = new Set([
  'invalid_token',
  'unauthorized',
  'insufficient_scope',
  'oauth_required',
  'conversation_membership_required',
]);

/**
 * 400s about a flag's value that only the service can judge: the user fixes
 * the command line, as for any usage error (docs/scripting.md#exit-codes).
 */
const USAGE_CODES = new Set(['invalid_query']);

/** Maps an HTTP status (and problem code) from the service to an exit code. */
export function exitCodeForStatus(status: number, code?: string): ExitCode {
  if (code && AUTH_CODES.has(code)) return ExitCode.Auth;
  if (code && USAGE_CODES.has(code)) return ExitCode.Usage;
  if (status === 401 || status === 403) return ExitCode.Auth;
  if (status === 404) return ExitCode.NotFound;
  if (status === 409) return ExitCode.Conflict;
  if (status === 422) return ExitCode.Validation;
  if (status === 429) return ExitCode.RateLimited;
  if (status >= 500) return ExitCode.Unavailable;
  // 400 and anything unlisted: "other failure".
  return ExitCode.Failure;
}
