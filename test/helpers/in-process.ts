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
import { EventEmitter } from 'node:events';
import { PassThrough, Readable, Writable } from 'node:stream';
import { run } from '../../src/cli/cli.js';
import type { Services } from '../../src/cli/context.js';
import { handleSignals } from '../../src/cli/signals.js';
import { watchOutput, type WatchedOutput } from './output-watch.js';
import type { CliResult } from './cli.js';

export { isolatedEnv, jsonLines, sandboxEnv, type CliResult } from './cli.js';

export interface InProcessOptions {
  env: Record<string, string | undefined>;
  /** Piped stdin (ignored with tty: a terminal's stdin never ends by itself). */
  input?: string | Uint8Array;
  /** Behave as on a terminal: stdin, stdout and stderr are TTYs. */
  tty?: boolean;
  /** Terminal width when tty (default 100). */
  columns?: number;
  /** Doubles for prompts, the browser, the clock or the HTTP transport. */
  services?: Partial<Services>;
  /** Abort the command (as Ctrl-C would) after this long; the result then has what it wrote so far. */
  timeout?: number;
  signal?: AbortSignal;
  /** Called with each piece of output as it is written. */
  onWrite?: (stream: 'stdout' | 'stderr', text: string) => void;
}

class Capture extends Writable {
  text = '';
  constructor(readonly isTTY: boolean, readonly columns?: number, private readonly onText?: (text: string) => void) {
    super({ decodeStrings: false });
  }
  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void) {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    this.text += text;
    this.onText?.(text);
    done();
  }
}

export async function msgctl(args: string[], options: InProcessOptions): Promise<CliResult> {
  const tty = options.tty ?? false;
  const onWrite = options.onWrite;
  const stdout = new Capture(tty, tty ? (options.columns ?? 100) : undefined, onWrite && ((text) => onWrite('stdout', text)));
  const stderr = new Capture(tty, tty ? (options.columns ?? 100) : undefined, onWrite && ((text) => onWrite('stderr', text)));
  const stdin = tty ? Object.assign(new PassThrough(), { isTTY: true }) : Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(Object.assign(new Error('Interrupted'), { name: 'AbortError' })), options.timeout ?? 30_000);
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  try {
    const exitCode = await run(args, { io: { stdout, stderr, stdin }, env: options.env, signal, services: options.services });
    return { stdout: stdout.text, stderr: stderr.text, exitCode };
  } finally {
    clearTimeout(timer);
    stdin.destroy();
  }
}

/** A long-lived command (a listener, a `--follow`) run in this process while the test acts. */
export interface BackgroundCommand extends WatchedOutput {
  /** Delivers `signal` the way the binary's handler does (src/cli/signals.ts) and resolves with the exit code. */
  stop(signal?: 'SIGINT' | 'SIGTERM'): Promise<number>;
}

/**
 * Starts `msgctl args` in this process and returns at once. Signals go through the
 * binary's own handler (handleSignals), so Ctrl-C and SIGTERM abort the command as
 * they do in a real process; what only a real process shows (its exit status after
 * the grace period, a blocked write) stays in test/e2e.
 */
export function startInProcess(args: string[], options: Omit<InProcessOptions, 'signal' | 'timeout' | 'onWrite'>): BackgroundCommand {
  const controller = new AbortController();
  const signals = new EventEmitter();
  handleSignals(signals, controller, () => undefined);
  let exitCode: number | null = null;
  const output = watchOutput(() => exitCode);
  const finished = msgctl(args, { ...options, signal: controller.signal, timeout: 600_000, onWrite: output.write }).then((result) => {
    exitCode = result.exitCode;
    output.changed();
    return exitCode;
  });
  return Object.assign(output, {
    stop(signal: 'SIGINT' | 'SIGTERM' = 'SIGTERM') {
      if (exitCode === null) signals.emit(signal);
      return finished;
    },
  });
}
