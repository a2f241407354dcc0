/**
 * Runs a long-lived `msgctl` command (a listener) in the background, so a
 * test can read its output as it arrives, act meanwhile, and stop it the way
 * a user would (SIGINT / SIGTERM).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { binPath } from './cli.js';

export interface BackgroundCli {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the first match of `pattern` in stderr (or stdout), failing after `timeoutMs`. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves once stdout holds at least `count` lines. */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(args: string[], env: Record<string, string | undefined>, input = ''): BackgroundCli {
  const child = spawn(process.execPath, [binPath(), ...args], { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(input);
  const out = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  child.stdout!.on('data', (d) => ((out.stdout += d), notify()));
  child.stderr!.on('data', (d) => ((out.stderr += d), notify()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (notify(), resolve(code))));

  function until<T>(check: () => T | null, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const value = check();
        if (value !== null) {
          cleanup();
          resolve(value);
        } else if (child.exitCode !== null) {
          cleanup();
          reject(new Error(`msgctl exited (${child.exitCode}) before ${what}.\nstdout: ${out.stdout}\nstderr: ${out.stderr}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}.\nstdout: ${out.stdout}\nstderr: ${out.stderr}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(attempt);
      };
      waiters.add(attempt);
      attempt();
    });
  }

  return {
    child,
    get stdout() {
      return out.stdout;
    },
    get stderr() {
      return out.stderr;
    },
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
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
