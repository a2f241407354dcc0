/**
 * `-o FILE` / `--output FILE`: what the command prints goes to FILE as UTF-8
 * bytes, straight from msgctl. In PowerShell, `msgctl … > file` or
 * `| Out-File` would first decode msgctl's output with the console's code
 * page and re-encode it ("Zoë" becomes "ZoÃ«"); -o never passes through the
 * shell (docs/platforms.md).
 *
 * The text is written to FILE.partial beside it and renamed over FILE only
 * when the command succeeds, so a failed or interrupted command never leaves
 * a cut-off file under the name asked for (an existing FILE stays as it was),
 * and only if FILE.partial is still the file this run created (another run with
 * the same -o may have replaced it: then this one fails, exit 1).
 * FILE.partial is created for this run only: exclusively, without following a
 * link planted at that name, readable by the owner alone (it may hold PHI).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { CliError, UsageError } from '../errors.js';

export class FileOutput extends Writable {
  readonly isTTY = false;
  readonly columns = undefined;
  private fd: number | null;
  /** The file this run created as FILE.partial (device and inode), to know it is still there at the end. */
  private readonly created: { dev: number; ino: number };

  private constructor(
    readonly target: string,
    private readonly partial: string,
  ) {
    super({ decodeStrings: true });
    this.fd = openPartial(partial);
    const { dev, ino } = fstatSync(this.fd);
    this.created = { dev, ino };
  }

  /** Opens FILE.partial now, so a path that cannot be written is exit 2 before anything is sent. */
  static create(target: string): FileOutput {
    return new FileOutput(target, `${target}.partial`);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    try {
      for (let at = 0; at < chunk.length; ) at += writeSync(this.fd!, chunk, at);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  /** The command succeeded: FILE.partial becomes FILE (retried while Windows has FILE open, replace-file.ts). */
  async commit(): Promise<void> {
    await this.flushed();
    this.closeFd();
    // Two runs with the same -o at once (overlapping cron jobs): the second takes the first's
    // FILE.partial for a leftover and makes its own. Renaming whatever is at FILE.partial now
    // would publish the other run's output, perhaps cut off, under this run's success.
    if (!this.stillOurs()) {
      throw new CliError(`Another msgctl run writing ${this.target} replaced this run's ${this.partial} meanwhile; ${this.target} was left to that run.`, undefined, [
        'Give overlapping runs different -o files, or run this command again when the other is done.',
      ]);
    }
    const { replaceFile } = await import('../util/replace-file.js');
    await replaceFile(this.partial, this.target, { keepTempOnFailure: true });
  }

  /** The command failed: FILE.partial goes, FILE stays as it was. */
  async discard(): Promise<void> {
    await this.flushed().catch(() => undefined);
    this.closeFd();
    // Only this run's own: another run's FILE.partial at that name stays for that run.
    if (!this.stillOurs()) return;
    try {
      unlinkSync(this.partial);
    } catch {
      // already gone
    }
  }

  private stillOurs(): boolean {
    try {
      const now = lstatSync(this.partial);
      return now.isFile() && now.dev === this.created.dev && now.ino === this.created.ino;
    } catch {
      return false;
    }
  }

  private flushed(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.writableFinished) return resolve();
      this.once('error', reject);
      this.end(() => resolve());
    });
  }

  private closeFd(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * Creates `partial` for this run only: exclusive (never an existing file,
 * which could belong to another user and keep their owner and mode while PHI
 * is written into it) and no-follow (never through a symlink planted at that
 * name). A leftover of our own interrupted run, a regular file owned by us,
 * is removed first; anything else is refused.
 */
export function openPartial(partial: string): number {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  try {
    return openSync(partial, flags, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new UsageError(`Cannot create ${partial}: ${(err as Error).message}`);
  }
  const existing = lstatSync(partial);
  const ours = existing.isFile() && existing.nlink === 1 && (process.getuid === undefined || existing.uid === process.getuid());
  if (!ours) {
    throw new UsageError(`${partial} already exists and is not a file of yours from an earlier run; refusing to write through it.`, [
      'Remove it (or pick another -o), then run the command again.',
    ]);
  }
  unlinkSync(partial);
  try {
    return openSync(partial, flags, 0o600);
  } catch (err) {
    throw new UsageError(`Cannot create ${partial}: ${(err as Error).message}`);
  }
}
