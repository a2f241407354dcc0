/**
 * Opening and reading the files a user names with --body-file, --template-file,
 * --csv and `api --input`: regular files only, so a named pipe, a device or a
 * directory is a clear usage error instead of a command that blocks forever
 * (opening a FIFO waits for a writer) or reads /dev/zero until memory runs out.
 * `-` means stdin, read under the same size limit and abortable by Ctrl-C/SIGTERM.
 */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { decodeText } from './text-decode.js';

/** O_NONBLOCK makes open() of a FIFO return at once, so it can be refused instead of waited on. */
const OPEN_FLAGS = constants.O_RDONLY | (process.platform === 'win32' ? 0 : constants.O_NONBLOCK | constants.O_NOCTTY);

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many symbolic links',
};

/** Who holds a file on Windows, where another program's open file can refuse a reader. */
const HELD_BY = 'Excel keeps a file it has open locked; antivirus and OneDrive hold a file for a moment while they scan or sync it';

/**
 * Why `label` cannot be read, from the error code, as a UsageError. A file another program
 * holds says which programs do that: on Windows a locked file gives EBUSY, and EPERM when
 * the holder denies sharing (EPERM elsewhere is a permission).
 */
export function unreadable(label: string, code: string, message: string, platform: NodeJS.Platform = process.platform): UsageError {
  if (code === 'EBUSY' || (code === 'EPERM' && platform === 'win32')) {
    return new UsageError(`Cannot read ${label}: another program has it open and is not sharing it (${code}).`, [
      `Close it there, or wait a moment, then run the command again (${HELD_BY}).`,
      ...(code === 'EPERM' ? ['If no program has it open, your Windows account may not be allowed to read it: check its Properties > Security.'] : []),
    ]);
  }
  return new UsageError(`Cannot read ${label}: ${REASONS[code] ?? message}.`);
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** `label` is how the message names the input: "--body-file notice.txt". */
export async function openRegularFile(path: string, label: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (err) {
    throw unreadable(label, (err as NodeJS.ErrnoException).code ?? '', (err as Error).message);
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new UsageError(`Cannot read ${label}: it is ${kindOf(stats)}; give a regular file, or - to read stdin.`);
  }
  return { handle, size: stats.size };
}

export interface ReadLimit {
  maxBytes: number;
  /** Why there is a limit, for the message: "a message body is at most 1,600 characters". */
  why: string;
}

function tooLarge(label: string, limit: ReadLimit): UsageError {
  return new UsageError(`${label} is larger than ${formatBytes(limit.maxBytes)}; ${limit.why}. Nothing was sent.`);
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : n >= 1024 ? `${n / 1024} KiB` : `${n} bytes`;
}

/** The bytes of a regular file, never more than the limit (the size is checked before reading). */
export async function readFileBytes(path: string, label: string, limit: ReadLimit): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path, label);
  try {
    if (size > limit.maxBytes) throw tooLarge(label, limit);
    // The size is a hint (a file may grow while read, /proc files say 0): read in chunks
    // until the end, and stop one byte past the limit, never more.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(Math.max(size - total, 64 * 1024), limit.maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit.maxBytes) throw tooLarge(label, limit);
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw unreadable(label, (err as NodeJS.ErrnoException).code ?? '', (err as Error).message);
  } finally {
    await handle.close();
  }
}

/**
 * All of a stream (stdin), up to the limit. Aborting `signal` (Ctrl-C, SIGTERM)
 * ends the wait at once with the signal's reason, so nothing is sent.
 */
export async function readStreamBytes(stream: Readable, label: string, limit: ReadLimit, signal?: AbortSignal): Promise<Buffer> {
  signal?.throwIfAborted();
  const chunks: Buffer[] = [];
  let size = 0;
  const onAbort = () => stream.destroy(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > limit.maxBytes) {
        stream.destroy();
        throw tooLarge(label, limit);
      }
      chunks.push(bytes);
    }
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  // A Ctrl-C that came in together with the end of the input may still be waiting in this
  // turn's poll phase: let it run (setImmediate comes after it), so it wins and nothing is sent.
  if (signal) await new Promise((resolve) => setImmediate(resolve));
  signal?.throwIfAborted();
  return Buffer.concat(chunks);
}

export interface TextSource {
  stdin: Readable;
  signal?: AbortSignal;
}

/**
 * The decoded text of `source` (a path, or `-` for stdin): any BOM-marked
 * UTF-8/UTF-16, or UTF-8; see text-decode.ts.
 */
export async function readTextFrom(io: TextSource, source: string, label: string, limit: ReadLimit): Promise<string> {
  const bytes = source === '-' ? await readStreamBytes(io.stdin, label, limit, io.signal) : await readFileBytes(source, label, limit);
  return decodeText(bytes, label);
}
