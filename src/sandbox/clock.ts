/**
 * Sandbox time, never going back. `now()` can be moved forward (POST
 * /_sandbox/clock) so tests can expire codes, tokens and cursors without waiting; `delay()` scales
 * background waits by --time-scale so campaigns and deliveries run fast.
 */
export class Clock {
  private offsetMs = 0;
  private latestMs = -Infinity;

  constructor(readonly timeScale = 1) {}

  /**
   * Never less than an earlier answer, even if the machine's clock is set back: a
   * record's created_at must not sort before one created earlier (docs/sandbox.md "Order").
   */
  now(): number {
    const ms = Date.now() + this.offsetMs;
    if (ms > this.latestMs) this.latestMs = ms;
    return this.latestMs;
  }

  iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Real milliseconds to wait for `ms` of sandbox time. */
  scaled(ms: number): number {
    return Math.max(0, Math.round(ms * this.timeScale));
  }
}
