/**
 * Replacing a file with a finished temp file (config, credentials file, export
 * downloads), safely on Windows too. There, renaming over a file that another
 * program holds open fails with EPERM, EACCES or EBUSY: Excel keeps an opened
 * CSV locked, and antivirus scanners and sync clients (OneDrive) hold new files
 * for a moment. The moment passes, so the rename is retried with backoff for a
 * bounded time; Excel does not, so then the error says what to do, and the temp
 * file is removed (or kept, when it holds data the user would lose).
 */
import { rename as fsRename, unlink as fsUnlink, open, mkdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { CliError } from '../errors.js';

const BUSY = new Set(['EPERM', 'EACCES', 'EBUSY']);

export interface ReplaceOptions {
  /** Give up after this long (ms). */
  maxWaitMs?: number;
  /** Keep the temp file when giving up, and say where it is (an export the user would otherwise lose). */
  keepTempOnFailure?: boolean;
  /** For tests: the fs calls and the clock. */
  rename?: (from: string, to: string) => Promise<void>;
  unlink?: (path: string) => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_MAX_WAIT_MS = 3000;

/** The target stayed locked by another program. */
export class FileInUseError extends CliError {
  constructor(
    readonly target: string,
    readonly code: string,
    readonly keptTemp: string | undefined,
  ) {
    const hints = [`Close the file — is it open in Excel? — then run the command again.`];
    if (keptTemp) hints.push(`What was written is kept in ${keptTemp}; rename it to ${basename(target)} once the file is closed.`);
    super(`Cannot replace ${target}: another program has it open (${code}).`, undefined, hints);
    this.name = 'FileInUseError';
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function replaceFile(temp: string, target: string, options: ReplaceOptions = {}): Promise<void> {
  const rename = options.rename ?? fsRename;
  const unlink = options.unlink ?? fsUnlink;
  const sleep = options.sleep ?? defaultSleep;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  let waited = 0;
  let delay = 50;
  for (;;) {
    try {
      await rename(temp, target);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (BUSY.has(code) && waited < maxWaitMs) {
        const pause = Math.min(delay, maxWaitMs - waited);
        await sleep(pause);
        waited += pause;
        delay = Math.min(delay * 2, 1000);
        continue;
      }
      if (!options.keepTempOnFailure) await unlink(temp).catch(() => undefined);
      if (BUSY.has(code)) throw new FileInUseError(target, code, options.keepTempOnFailure ? temp : undefined);
      throw err;
    }
  }
}

/**
 * Writes `data` to a temp file beside `target` (created with `mode`, flushed)
 * and replaces `target` with it: a crash leaves the old file or the new one,
 * never a torn one, and never a leftover temp file.
 */
export async function writeFileAtomic(target: string, data: string, options: ReplaceOptions & { mode?: number } = {}): Promise<void> {
  const dir = dirname(target);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const unlink = options.unlink ?? fsUnlink;
  try {
    // 'wx': never write through something already at that name.
    const handle = await open(temp, 'wx', options.mode ?? 0o600);
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await replaceFile(temp, target, options);
}
