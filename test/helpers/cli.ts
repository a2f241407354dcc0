/**
 * Runs the built `msgctl` binary (execa) with an isolated HOME/XDG so no test
 * touches the developer's config or keychain, pointed at a sandbox.
 */
import { execa, type Options } from 'execa';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/start.js';

export function binPath(): string {
  const bin = process.env.MSGCTL_TEST_BIN;
  if (!bin) throw new Error('MSGCTL_TEST_BIN is not set: run tests through vitest (globalSetup builds the CLI).');
  return bin;
}

/** A fresh, empty home for config and state. */
export function isolatedEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const home = mkdtempSync(join(process.env.MSGCTL_TEST_HOMES ?? tmpdir(), 'msgctl-test-'));
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    // One compiled-code cache for the whole run, warm as a user's is after a first run: a fresh
    // one per command cost every spawn ~27 ms of CPU to compile and save (test/e2e/code-cache.test.ts
    // gives its commands caches of their own).
    XDG_CACHE_HOME: process.env.MSGCTL_TEST_HOMES ? join(process.env.MSGCTL_TEST_HOMES, 'cache') : join(home, '.cache'),
    // No Secret Service unless a test asks for one.
    DBUS_SESSION_BUS_ADDRESS: process.env.MSGCTL_TEST_KEYCHAIN ? process.env.DBUS_SESSION_BUS_ADDRESS : 'unix:path=/nonexistent',
    NO_COLOR: '1',
    // Never the real `msgctl` keychain service (on macOS and Windows the D-Bus trick above does
    // nothing), and one of its own per home: test files run in parallel against one Secret
    // Service, and two of them logging in to profile `default` under one name overwrote each
    // other's session (an API key turned up where an OAuth session was expected).
    MSGCTL_KEYCHAIN_SERVICE: `msgctl-test-${basename(home)}`,
    ...extra,
  };
}

/** Environment for a CLI talking to the sandbox with its full-access API key. */
export function sandboxEnv(sandbox: RunningSandbox, extra: Record<string, string | undefined> = {}) {
  return isolatedEnv({
    MSGCTL_BASE_URL: sandbox.baseUrl,
    MSGCTL_API_KEY: sandbox.credentials.api_key,
    ...extra,
  });
}

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export async function msgctl(
  args: string[],
  options: { env: Record<string, string | undefined>; input?: string | Uint8Array; timeout?: number } & Pick<Options, 'cwd'>,
): Promise<CliResult> {
  const result = await execa(process.execPath, [binPath(), ...args], {
    env: options.env,
    extendEnv: false,
    input: options.input ?? '',
    reject: false,
    stripFinalNewline: false,
    timeout: options.timeout ?? 30_000,
    cwd: options.cwd,
  });
  return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode ?? -1 };
}

/** Parses JSON Lines output, failing loudly on any non-JSON line. */
export function jsonLines<T = any>(stdout: string): T[] {
  return stdout
    .split('\n')
    .filter((l) => l.length > 0)
    .map((line) => {
      try {
        return JSON.parse(line) as T;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

/**
 * Resolves once process `pid` has started up and sits idle, waiting (on stdin,
 * a socket…), so a test's signal reaches msgctl's own handlers and not a
 * process still loading: on a loaded machine start-up alone can outlast any
 * fixed delay. (The caught-signal mask cannot tell: Node itself catches SIGINT
 * and SIGTERM from its first instant.) Linux reads /proc: sleeping, with no
 * CPU time spent for 300 ms. Elsewhere a fixed wait is the best there is.
 */
export async function untilIdle(pid: number, timeoutMs = 20_000): Promise<void> {
  if (process.platform !== 'linux') return new Promise((resolve) => setTimeout(resolve, 1500));
  let lastCpu = -1;
  let quietSince = 0;
  for (const start = Date.now(); Date.now() - start < timeoutMs; ) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // Fields after the ")" closing the command name: state is the 1st, utime and stime the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = Number(fields[11]) + Number(fields[12]);
    if (fields[0] === 'S' && cpu === lastCpu) {
      if (Date.now() - quietSince >= 300) return;
    } else {
      quietSince = Date.now();
    }
    lastCpu = cpu;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`process ${pid} never settled into waiting`);
}
