/**
 * The process's stdout and stderr for a command run in the main thread.
 *
 * No write may keep SIGINT or SIGTERM from ending msgctl (docs/security.md, promise 7):
 * a signal is handled in the event loop, so a write that blocks the main thread holds
 * every handler and the grace timer with it. So:
 *
 * - a regular file or /dev/null: written directly with fs.writeSync (DirectOutput).
 *   Node's own stream writes these synchronously too, so this costs nothing in
 *   safety, and it spares creating the stream, which loads Node's stream modules.
 * - a pipe, on Linux: written directly too, but through the pipe opened again in
 *   non-blocking mode (/proc/self/fd/N), so a full pipe answers EAGAIN at once and
 *   Node's stream takes the rest, waiting for the reader in the event loop where the
 *   signal handlers and the grace timer run. (The first 4 KB used to be written with
 *   a blocking writeSync: a pipe another process had filled held that write, and every
 *   signal, for as long as nobody read: `( head -c 65536 /dev/zero; msgctl org --json )
 *   | sleep 40`.) Creating Node's stream costs ~5 ms of a ~35 ms `send --dry-run`
 *   (it loads stream and net); the direct write keeps that for the common case.
 * - a pipe elsewhere, a socket: Node's stream, which puts the pipe in non-blocking mode.
 * - a terminal: Node's stream, made non-blocking. Node writes to a terminal
 *   synchronously, so a terminal on hold (Ctrl-S, or a program's tcflow) held the
 *   write, and SIGTERM with it; libuv reopens a terminal for itself, so non-blocking
 *   mode is this process's only and does not reach the shell. The end of what is
 *   written waits in the stream; main() waits for it before exiting (`whenWritten`).
 * - Windows: Node's streams as they are (its console wants UTF-16 writes).
 *
 * A file that blocks in the kernel (a hung NFS server with a hard mount) holds any
 * process that writes to it, Node's streams included: only SIGKILL ends it.
 *
 * When stdout cannot be written, direct or through Node's stream: a reader gone
 * away (EPIPE: `msgctl … | head`) ends the process with status 0; any other
 * error (a full disk, a file over its size limit, an I/O error) ends it with
 * status 1 and says so on stderr, so a script never takes a cut-off answer for
 * a whole one (before, Node's warning about an unsettled await and status 13).
 * stderr drops what it cannot write: there is nowhere left to say so.
 */
import type { Writable } from 'node:stream';
import { ExitCode } from '../exit-codes.js';
import { localProblem } from './local-problem.js';
import type { OutStream } from './output.js';

type StdioFd = 1 | 2;

// Loaded at Node's bootstrap already; taken once, not on every write.
const fs = process.getBuiltinModule('node:fs');

// `scripts/build.mjs --without direct-output` (bench/mechanisms.mjs) builds the CLI with Node's
// streams only, to measure what writing directly gains; every other build defines it true, and
// esbuild drops the test. Undefined (the tests, which run the sources) means on.
declare const __MSGCTL_DIRECT_OUTPUT__: boolean | undefined;
const directOutputBuilt = typeof __MSGCTL_DIRECT_OUTPUT__ === 'boolean' ? __MSGCTL_DIRECT_OUTPUT__ : true;

export class DirectOutput implements OutStream {
  readonly isTTY = false;
  readonly columns = undefined;
  /** Node's stream, once a write could not be done here (or a caller needed a real stream). */
  private fallback: NodeJS.WriteStream | null = null;

  /** `fd`: which of the process's outputs; `target`: the descriptor written (fd itself, or a non-blocking one of its pipe). */
  constructor(
    private readonly fd: StdioFd,
    private readonly target: number = fd,
  ) {}

  write(chunk: string | Uint8Array, callback?: (err?: Error | null) => void): boolean {
    if (this.fallback) return this.fallback.write(chunk, callback);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let at = 0; at < bytes.length; ) {
      try {
        at += fs.writeSync(this.target, bytes, at);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EINTR') continue;
        // EAGAIN (a full pipe): Node's stream waits for the reader in the event loop and writes the rest.
        if (code === 'EAGAIN') return this.stream().write(bytes.subarray(at), callback);
        if (this.fd === 1) outputFailed(err as NodeJS.ErrnoException);
        break; // stderr: nowhere to say so, and the command's status still tells
      }
    }
    if (callback) queueMicrotask(() => callback(null));
    return true;
  }

  once(event: 'drain', listener: () => void): this {
    // Only asked for after write() returned false, which only Node's stream does.
    this.fallback?.once(event, listener);
    return this;
  }

  /** Node's own stream for this descriptor, for what needs a Writable (a pipeline); later writes go to it as well. */
  stream(): NodeJS.WriteStream {
    this.fallback ??= nodeStream(this.fd);
    return this.fallback;
  }

  /** Node's stream if it took over, else null: everything was written already. */
  get takenOver(): NodeJS.WriteStream | null {
    return this.fallback;
  }
}

/**
 * stdout (fd 1) or stderr (fd 2) of the main thread: a DirectOutput where that is safe
 * (module comment), else Node's stream, on which a closed stdout reader ends the process with 0.
 */
export function mainThreadOutput(fd: StdioFd): OutStream {
  const target = directOutputBuilt ? directTarget(fd) : null;
  return target === null ? nodeStream(fd) : new DirectOutput(fd, target);
}

/** Node's stream for `fd`, created here, with the error handling of the module comment. */
function nodeStream(fd: StdioFd): NodeJS.WriteStream {
  return fd === 1 ? handleStdoutErrors(process.stdout) : handleStderrErrors(process.stderr);
}

/**
 * stdout that cannot be written: status 0 for a closed reader (`| head`), else 1 (module comment);
 * on a terminal, non-blocking.
 */
export function handleStdoutErrors(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  return nonBlockingTerminal(stdout.on('error', outputFailed));
}

/** stderr that cannot be written drops the text, rather than crashing the command over it; on a terminal, non-blocking. */
export function handleStderrErrors(stderr: NodeJS.WriteStream): NodeJS.WriteStream {
  return nonBlockingTerminal(stderr.on('error', () => undefined));
}

/** Node makes a terminal's stream blocking (tty.WriteStream); the module comment says why it must not be. */
function nonBlockingTerminal(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (stream.isTTY && process.platform !== 'win32') {
    (stream as unknown as { _handle?: { setBlocking?(blocking: boolean): unknown } })._handle?.setBlocking?.(false);
  }
  return stream;
}

/** Ends the process over a failed stdout write: a closed reader is a normal end, anything else a failure. */
function outputFailed(err: NodeJS.ErrnoException): never {
  if (err.code === 'EPIPE') process.exit(ExitCode.Ok);
  const reason = `${(err.message.split(',')[0] ?? '').replace(/^[A-Z]+: /, '')}${err.code ? ` (${err.code})` : ''}`;
  const detail = `cannot write to standard output: ${reason}; the output is incomplete.`;
  // Written straight to the descriptor: the process ends right after, with no turn of the event loop.
  const line = process.argv.includes('--json')
    ? JSON.stringify(localProblem('output_failed', 'Output failed', detail))
    : `error: ${detail}`;
  try {
    fs.writeSync(2, line + '\n');
  } catch {
    // stderr is gone too: the status says it
  }
  process.exit(ExitCode.Failure);
}

/**
 * The descriptor to write `fd`'s bytes to with fs.writeSync (module comment), or null for Node's
 * stream from the start: `fd` itself for a file or /dev/null; for a pipe on Linux, the pipe
 * opened again non-blocking (/proc/self/fd/N is a new open file of the same pipe, so the mode
 * is ours alone), where a full pipe answers EAGAIN instead of holding the process.
 */
function directTarget(fd: StdioFd): number | null {
  if (process.platform === 'win32') return null;
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isFile()) return fd;
    if (stat.isFIFO()) return process.platform === 'linux' ? fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK) : null;
    // /dev/null (cron jobs, `>/dev/null`); a socket, a terminal (a character device too) get Node's stream.
    return stat.isCharacterDevice() && stat.rdev === fs.statSync('/dev/null').rdev ? fd : null;
  } catch {
    return null; // closed, unusual, or a pipe without a reader: Node's stream decides
  }
}

/** `out` as a Writable, for a pipeline (a DirectOutput hands over to Node's stream). */
export function writableOf(out: OutStream): Writable {
  const stream = out instanceof DirectOutput ? out.stream() : out;
  const candidate = stream as Partial<Writable>;
  if (typeof candidate.on !== 'function' || typeof candidate.end !== 'function') throw new TypeError('not a writable stream');
  return stream as Writable;
}

/**
 * Resolves once everything written to these outputs has left the process: a Node stream
 * may still hold the end of a long answer for a slow reader, and process.exit would drop
 * it. Waiting happens in the event loop, so Ctrl-C and SIGTERM still end the process.
 */
export async function whenWritten(...outputs: OutStream[]): Promise<void> {
  await Promise.all(
    outputs.map((out) => {
      const stream = out instanceof DirectOutput ? out.takenOver : (out as Partial<NodeJS.WriteStream>);
      if (!stream || typeof stream.write !== 'function' || !stream.writableLength) return undefined;
      return new Promise<void>((resolve) => {
        // An empty write's callback runs after every earlier write has completed (or failed).
        stream.write!('', () => resolve());
      });
    }),
  );
}
