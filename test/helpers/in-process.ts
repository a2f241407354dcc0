/**
 * Runs msgctl in the test's own process: `run(argv, {io, env, services})`
 * from src/cli/cli.ts with in-memory streams, against an in-process sandbox.
 * The same signature and result as the spawning helper (helpers/cli.ts), at a
 * fraction of the cost (no Node start-up per command).
 *
 * It exercises everything from argv parsing to the exit code and the HTTP
 * exchange with the sandbox; what needs a real process (signals, the exit of
 * the binary, the keychain child, a browser, two runs sharing a journal lock)
 * stays in test/e2e with the spawning helper.
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { run } from '../../src/cli/cli.js';
import type { Services } from '../../src/cli/context.js';
import type { CliResult } from './cli.js';

export { isolatedEnv, jsonLines, sandboxEnv, type CliResult } from './cli.js';

export interface InProcessOptions {
  env: Record<string, string | undefined>;
  /** Piped stdin (ignored with tty: a terminal's stdin never ends by itself). */
  input?: string;
  /** Behave as on a terminal: stdin, stdout and stderr are TTYs. */
  tty?: boolean;
  /** Terminal width when tty (default 100). */
  columns?: number;
  /** Doubles for prompts, the browser, the clock or the HTTP transport. */
  services?: Partial<Services>;
  /** Abort the command (as Ctrl-C would) after this long; the result then has what it wrote so far. */
  timeout?: number;
  signal?: AbortSignal;
  /** Working directory for relative paths (the process's, changed for the duration of the run). */
  cwd?: string;
}

class Capture extends Writable {
  text = '';
  constructor(readonly isTTY: boolean, readonly columns?: number) {
    super({ decodeStrings: false });
  }
  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void) {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    done();
  }
}

export async function msgctl(args: string[], options: InProcessOptions): Promise<CliResult> {
  const tty = options.tty ?? false;
  const stdout = new Capture(tty, tty ? (options.columns ?? 100) : undefined);
  const stderr = new Capture(tty, tty ? (options.columns ?? 100) : undefined);
  const stdin = tty ? Object.assign(new PassThrough(), { isTTY: true }) : Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(Object.assign(new Error('Interrupted'), { name: 'AbortError' })), options.timeout ?? 30_000);
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  const previousCwd = process.cwd();
  if (options.cwd) process.chdir(options.cwd);
  try {
    const exitCode = await run(args, { io: { stdout, stderr, stdin }, env: options.env, signal, services: options.services });
    return { stdout: stdout.text, stderr: stderr.text, exitCode };
  } finally {
    clearTimeout(timer);
    stdin.destroy();
    if (options.cwd) process.chdir(previousCwd);
  }
}
