/**
 * Errors that end a command. Each carries the exit code of product.md §2 so the
 * top level never has to guess; API problems live in src/api/errors.ts.
 */
import { ExitCode } from './exit-codes.js';

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.Failure,
    /** Extra lines shown under the message: hints, ways out. */
    readonly hints: string[] = [],
    /** The problem's `code` with --json where the exit code's own (`error`, `usage_error`…) says too little. */
    readonly problemCode?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Bad flag, bad input, anything caught locally: nothing was sent. */
export class UsageError extends CliError {
  constructor(message: string, hints: string[] = []) {
    super(message, ExitCode.Usage, hints);
    this.name = 'UsageError';
  }
}

/** No usable credential, or the credential store refused. */
export class AuthError extends CliError {
  constructor(message: string, hints: string[] = []) {
    super(message, ExitCode.Auth, hints);
    this.name = 'AuthError';
  }
}
