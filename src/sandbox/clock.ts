/**
 * Sandbox time. `now()` can be moved forward (POST /_sandbox/clock) so tests
 * can expire codes, tokens and cursors without waiting; `delay()` scales
 * background waits by --time-scale so campaigns and deliveries run fast.
 */
export class Clock {
  private offsetMs = 0;

  constructor(readonly timeScale = 1) {}

  now(): number {
    return Date.now() + this.offsetMs;
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
