/**
 * The batch journal: one JSON line per row whose outcome is final, so a
 * re-run sends only the rest (docs/scripting.md, "Journal").
 *
 * Durability: outcomes are appended and fsynced in groups, at most
 * COMMIT_WINDOW_MS after the service answered. An outcome is only ever
 * queued after its answer arrived, so the journal never claims a row that
 * was not sent; a crash inside the window loses at most the last few
 * outcomes, and those rows are sent again with the same Idempotency-Key,
 * which the service replays for 24 hours instead of sending twice.
 *
 * A crash can also leave a half-written last line. Reading ignores any line
 * without its newline, and opening for append cuts it off first, so the next
 * entry starts on a line of its own.
 */
import { close, createReadStream, fdatasync, ftruncateSync, writeSync } from 'node:fs';

const datasync = promisify(fdatasync);
const closeFile = promisify(close);
import { open, rename } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';
import { CliError, UsageError } from '../errors.js';
import { ensureOwnFolder, openOwn } from '../util/own-files.js';

export const COMMIT_WINDOW_MS = 25;

export type FinalOutcome = 'sent' | 'skipped' | 'failed';

export interface JournalEntry {
  row: number;
  outcome: FinalOutcome;
  key: string;
  message_id?: string;
  code?: string;
  request_id?: string | null;
  at: string;
}

export interface JournalHeader {
  journal: 'msgctl send --csv';
  version: 1;
  batch: string;
  csv: string;
  created_at: string;
}

const OUTCOME_CODES: Record<FinalOutcome, number> = { sent: 1, skipped: 2, failed: 3 };
const OUTCOMES: Array<FinalOutcome | undefined> = [undefined, 'sent', 'skipped', 'failed'];

/**
 * Final outcome per spreadsheet row, one byte each, so a million-row journal stays small in memory;
 * and the service's code for the few rows not sent (`patient_opted_out`), so a re-run can say why.
 */
export class DoneRows {
  private kinds = new Uint8Array(1024);
  private total = 0;
  private readonly codes = new Map<number, string>();

  get size(): number {
    return this.total;
  }

  get(row: number): FinalOutcome | undefined {
    return row < this.kinds.length ? OUTCOMES[this.kinds[row]!] : undefined;
  }

  /** The code an earlier run was answered with for a row it did not send. */
  codeOf(row: number): string | undefined {
    return this.codes.get(row);
  }

  set(row: number, outcome: FinalOutcome, code?: string): void {
    if (outcome !== 'sent' && code !== undefined) this.codes.set(row, code);
    else if (this.codes.size) this.codes.delete(row);
    if (row >= this.kinds.length) {
      const grown = new Uint8Array(Math.max(row + 1, this.kinds.length * 2));
      grown.set(this.kinds);
      this.kinds = grown;
    }
    if (this.kinds[row] === 0) this.total += 1;
    this.kinds[row] = OUTCOME_CODES[outcome];
  }
}

export interface JournalState {
  /** Batch id from the header line; null when the file is missing or has no complete header. */
  batch: string | null;
  done: DoneRows;
  /** Bytes up to the end of the last complete line. */
  completeBytes: number;
  /** Length of a trailing line cut short by a crash (ignored). */
  tornBytes: number;
  /** Complete lines that were not journal JSON (ignored). */
  unreadableLines: number;
}

export async function readJournal(path: string): Promise<JournalState> {
  const state: JournalState = { batch: null, done: new DoneRows(), completeBytes: 0, tornBytes: 0, unreadableLines: 0 };
  let carry: Buffer = Buffer.alloc(0);
  let sawHeader = false;
  const onLine = (line: string) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      state.unreadableLines += 1;
      return;
    }
    const v = value as Partial<JournalEntry & JournalHeader>;
    if (!sawHeader && v.journal === 'msgctl send --csv' && typeof v.batch === 'string') {
      sawHeader = true;
      state.batch = v.batch;
    } else if (Number.isInteger(v.row) && (v.outcome === 'sent' || v.outcome === 'skipped' || v.outcome === 'failed')) {
      state.done.set(v.row!, v.outcome, typeof v.code === 'string' ? v.code : undefined);
    } else state.unreadableLines += 1;
  };
  try {
    // The user's own file in a folder no one else can change, never through a link (util/own-files.ts):
    // another user's journal could say rows were sent that never were.
    const fd = openOwn(path, 'read', 'the journal');
    if (fd === null) return state;
    for await (const chunk of createReadStream('', { fd })) {
      const buffer: Buffer = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
      let start = 0;
      for (let nl = buffer.indexOf(10); nl >= 0; nl = buffer.indexOf(10, start)) {
        if (nl > start) onLine(buffer.toString('utf8', start, nl));
        state.completeBytes += nl + 1 - start;
        start = nl + 1;
      }
      carry = buffer.subarray(start);
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`Cannot read the journal ${path}: ${(err as Error).message}`);
  }
  state.tornBytes = carry.length;
  return state;
}

/** Appends outcomes with group commit; see the module comment for the durability window. */
export class JournalWriter {
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** The first write or fsync failure; the batch stops taking rows when set. */
  error: Error | null = null;

  private constructor(
    readonly path: string,
    /** The journal's descriptor (openJournalFile). */
    private readonly fd: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Opens `path` for appending `header.batch`'s outcomes. A torn last line is
   * cut off first; a journal of another batch is moved to `path.previous`.
   */
  static async open(given: string, header: JournalHeader, state: JournalState, windowMs = COMMIT_WINDOW_MS): Promise<JournalWriter> {
    // In the folder as checked and resolved once: renames and opens never go through a link.
    const path = join(ensureOwnFolder(dirname(given), 'the journal folder'), basename(given));
    if (state.batch === null && state.completeBytes > 0) {
      throw new UsageError(`${path} is not a msgctl batch journal; nothing was sent.`, [
        'Point --journal at a new file, or at a journal an earlier `msgctl send --csv` wrote.',
      ]);
    }
    let fresh = state.batch === null;
    if (state.batch !== null && state.batch !== header.batch) {
      await rename(path, `${path}.previous`);
      fresh = true;
    }
    const fd = openJournalFile(path, fresh);
    // A torn last line is cut off on the descriptor checked, never by name.
    if (!fresh && state.tornBytes > 0) ftruncateSync(fd, state.completeBytes);
    const writer = new JournalWriter(given, fd, windowMs);
    if (fresh) {
      writeAll(fd, JSON.stringify(header) + '\n');
      await datasync(fd);
      await syncDirectory(dirname(path));
    }
    return writer;
  }

  record(entry: JournalEntry): void {
    this.pending.push(JSON.stringify(entry) + '\n');
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.windowMs);
  }

  /** Writes and fsyncs everything recorded so far; resolves once it is on disk (or failed: see `error`). */
  flush(): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.pending.length === 0 || this.error) return;
      const data = this.pending.join('');
      this.pending = [];
      try {
        // The write only fills the page cache, so it is done in place: one trip to libuv's
        // threads per commit (the fsync) instead of two. The fsync stays off the event loop.
        writeAll(this.fd, data);
        await datasync(this.fd);
      } catch (err) {
        this.error = new CliError(`Cannot write the journal ${this.path}: ${(err as Error).message}`);
      }
    });
    return this.chain;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
    await closeFile(this.fd);
    if (this.error) throw this.error;
  }
}

/**
 * The journal file for writing: appended to when it holds this batch, else emptied, or
 * created exclusively (0600) when there is none. Either way the user's own regular file
 * with one link, never a link (openOwn): an empty 0666 file another user left at the
 * path would get the journal and stay theirs to edit.
 */
function openJournalFile(path: string, fresh: boolean): number {
  const what = 'the journal';
  let fd = openOwn(path, fresh ? 'truncate' : 'append', what);
  if (fd === null) {
    try {
      fd = openOwn(path, 'create', what);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      fd = openOwn(path, fresh ? 'truncate' : 'append', what); // made in between
    }
  }
  if (fd === null) throw new CliError(`Cannot open the journal ${path}: it vanished while opening it.`);
  return fd;
}

/** Writes all of `text` at the descriptor's position (a journal is opened for append). */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
}

/** Makes a newly created file's directory entry durable too. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some filesystems refuse fsync on directories; the file's own fsync still happened.
  }
}

// The journal's lock (whose it is, when it is stale) lives in lock.ts.
export { lockJournal } from './lock.js';
