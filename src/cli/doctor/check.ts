/** One line of `msgctl doctor`: what was checked, how it went, and what to do about it. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  check: string;
  /** ok; warn: will bite in a likely situation (cron); fail: broken now (exit 1); skip: not applicable here. */
  status: CheckStatus;
  detail: string;
  /** What to do, for warn and fail. */
  fix?: string;
}

/** Runs a check, turning an unexpected error into a failed line rather than ending the doctor. */
export async function guarded(check: string, run: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await run();
  } catch (err) {
    return { check, status: 'fail', detail: `the check itself failed: ${(err as Error).message}` };
  }
}
