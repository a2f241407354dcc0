/**
 * The output of a command running in the background (a spawned binary or one
 * run in this process), and waits on it: for a pattern, or for a number of
 * lines, failing at a timeout or when the command ends first.
 */

export interface WatchedOutput {
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the first match of `pattern` in stderr (or stdout), failing after `timeoutMs`. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves once stdout holds at least `count` lines. */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
}

/**
 * `ended()` is the command's exit code once it has ended, else null. The caller
 * appends what the command writes with `write` and calls `changed` when it ends.
 */
export function watchOutput(ended: () => number | null): WatchedOutput & { write(stream: 'stdout' | 'stderr', text: string): void; changed(): void } {
  const out = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((attempt) => attempt());

  function until<T>(check: () => T | null, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(attempt);
      };
      const attempt = () => {
        const value = check();
        if (value !== null) {
          cleanup();
          resolve(value);
        } else if (ended() !== null) {
          cleanup();
          reject(new Error(`msgctl ended (${ended()}) before ${what}.\nstdout: ${out.stdout}\nstderr: ${out.stderr}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}.\nstdout: ${out.stdout}\nstderr: ${out.stderr}`));
      }, timeoutMs);
      waiters.add(attempt);
      attempt();
    });
  }

  return {
    get stdout() {
      return out.stdout;
    },
    get stderr() {
      return out.stderr;
    },
    write(stream, text) {
      out[stream] += text;
      changed();
    },
    changed,
    waitFor: (pattern, stream = 'stderr', timeoutMs = 15_000) => until(() => out[stream].match(pattern), timeoutMs, String(pattern)),
    waitForLines: (count, timeoutMs = 15_000) =>
      until(
        () => {
          const lines = out.stdout.split('\n').filter(Boolean);
          return lines.length >= count ? lines : null;
        },
        timeoutMs,
        `${count} lines on stdout`,
      ),
  };
}
