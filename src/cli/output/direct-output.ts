/**
 * The process's stdout and stderr for a command run in the main thread.
 *
 * Node creates process.stdout or process.stderr on first use, and that loads
 * its stream modules, plus net for a pipe or socket: ~4.5 ms of a ~39 ms
 * `msgctl send --dry-run` (bench/startup.mjs). When the destination is a
 * regular file, a pipe, a socket or /dev/null on POSIX, Node's own stream
 * would write synchronously anyway (a file through fs.writeSync, a pipe with
 * a blocking write on Linux), so DirectOutput writes with fs.writeSync and
 * skips the stream.
 *
 * A terminal, anything on Windows (its console wants UTF-16 writes) and any
 * other device get Node's stream as before. A pipe another process left in
 * non-blocking mode can refuse a write (EAGAIN) when full: from then on the
 * rest goes through Node's stream, which waits for the reader, so nothing is
 * lost or reordered. A reader gone away (EPIPE: `msgctl … | head`) ends the
 * process with status 0 for stdout, as the stream's handler does; stderr
 * drops what it cannot write.
 */
import type { Writable } from 'node:stream';
import { ExitCode } from './exit-codes.js';
import type { OutStream } from './output.js';

type StdioFd = 1 | 2;

export class DirectOutput implements OutStream {
  readonly isTTY = false;
  readonly columns = undefined;
  /** Node's stream, once a write could not be done here (or a caller needed a real stream). */
  private fallback: NodeJS.WriteStream | null = null;

  constructor(private readonly fd: StdioFd) {}

  write(chunk: string | Uint8Array, callback?: (err?: Error | null) => void): boolean {
    if (this.fallback) return this.fallback.write(chunk, callback);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const fs = process.getBuiltinModule('node:fs');
    for (let at = 0; at < bytes.length; ) {
      try {
        at += fs.writeSync(this.fd, bytes, at);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') {
          if (this.fd === 1) process.exit(ExitCode.Ok);
          break; // stderr's reader is gone: nothing better to do with the text
        }
        if (code === 'EINTR') continue;
        // EAGAIN and the rest: Node's stream takes it from here (it waits, or reports the error as before).
        return this.stream().write(bytes.subarray(at), callback);
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
    if (!this.fallback) {
      this.fallback = this.fd === 1 ? process.stdout : process.stderr;
      if (this.fd === 1) exitOnClosedReader(this.fallback);
    }
    return this.fallback;
  }
}

/**
 * stdout (fd 1) or stderr (fd 2) of the main thread: a DirectOutput where that is safe
 * (module comment), else Node's stream, on which a closed stdout reader ends the process with 0.
 */
export function mainThreadOutput(fd: StdioFd): OutStream {
  if (writesDirectly(fd)) return new DirectOutput(fd);
  if (fd === 2) return process.stderr;
  exitOnClosedReader(process.stdout);
  return process.stdout;
}

/** A closed pipe on stdout (`msgctl … | head`) is a normal end, not a crash. */
export function exitOnClosedReader(stdout: NodeJS.WriteStream): void {
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.Ok);
  });
}

function writesDirectly(fd: StdioFd): boolean {
  if (process.platform === 'win32') return false;
  const fs = process.getBuiltinModule('node:fs');
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isFile() || stat.isFIFO() || stat.isSocket()) return true;
    // /dev/null (cron jobs, `>/dev/null`); a terminal is a character device too, and keeps Node's stream.
    return stat.isCharacterDevice() && stat.rdev === fs.statSync('/dev/null').rdev;
  } catch {
    return false; // closed or unusual: Node's stream decides
  }
}

/** `out` as a Writable, for a pipeline (a DirectOutput hands over to Node's stream). */
export function writableOf(out: OutStream): Writable {
  return (out instanceof DirectOutput ? out.stream() : out) as Writable;
}
