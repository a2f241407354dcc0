/**
 * The sandbox's whole state in one SQLite database (Node's built-in
 * node:sqlite): in memory by default, a file with `--data FILE`. Each named
 * table is an SQL table (schema.ts); routes and workers use them through
 * domain functions. Single-threaded and synchronous, so no locking is needed.
 *
 * Writes of one turn of the event loop share a transaction, committed at the
 * end of the turn (`settle()`); the HTTP layer awaits `durable()` (that
 * commit) before it answers a write. With a file the journal is WAL: a commit
 * that a request waits for is fsynced (on disk: a crash, even kill -9, loses
 * nothing that was answered and leaves nothing half-written). A commit nobody
 * waits for (the delivery worker and other background steps) is not fsynced
 * by itself: it is in the WAL, in the OS's hands (safe from kill -9, and on
 * disk with the next fsync, which covers every frame before it). On a busy
 * disk an fsync takes tens of milliseconds with the event loop waiting, so
 * requests should not queue behind fsyncs of background writes.
 */
import { chmodSync, closeSync, fchmodSync, openSync, readSync } from 'node:fs';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { openDatabase } from './sqlite.js';
import { countTriggers, createStatements, missingColumns } from './schema.js';
import { Table } from './table.js';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** A --data file that cannot be used (wrong kind of file, unwritable path): a usage problem, exit 2. */
export class SandboxDataError extends Error {
  override readonly name = 'SandboxDataError';
}

export class SandboxStore {
  readonly sql: DatabaseSync;
  private readonly tables = new Map<string, Table<{ id: string }>>();
  private readonly statements = new Map<string, StatementSync>();
  /** Prepared statements whose rows come as arrays (rowsAsArrays), apart from those giving objects. */
  private readonly arrayStatements = new Map<string, StatementSync>();
  /** Monotonic counter for ordering records created in the same millisecond. */
  private seq: number;
  private seqDirty = false;
  private inTransaction = false;
  /** With a file: frames were committed (synchronous=NORMAL) since the WAL was last fsynced. */
  private unsynced = false;
  private settleScheduled = false;
  private checkpointTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly listeners = new Set<() => void>();
  /** Statements for lazy walks not in use (a walk borrows one; two walks of one query need two). */
  private readonly idle = new Map<string, StatementSync[]>();
  private readingDepth = 0;
  /**
   * Moves on every write and every row handed out outside a GET (which may be changed in
   * place and only written back at the end of the turn): something computed from the data
   * at one value is still true while the value holds.
   */
  private generation = 0;
  /** deferChanges: how deep, and whether a changed() came meanwhile. */
  private deferring = 0;
  /** holdCommits: while above 0, the end-of-turn commit waits for the explicit settle() after it. */
  private holding = 0;
  private changePending = false;
  private waiters: { resolve: () => void; reject: (err: Error) => void }[] = [];

  /** `file` null: an in-memory database. */
  constructor(readonly file: string | null = null) {
    if (file) {
      refuseNonSqlite(file);
      makePrivate(file);
    }
    try {
      this.sql = openDatabase(file ?? ':memory:');
      if (file) {
        this.sql.exec('PRAGMA journal_mode = WAL');
        // NORMAL: a commit does not fsync by itself; commit() adds the fsync where a request waits.
        this.sql.exec('PRAGMA synchronous = NORMAL');
        // Checkpoints (WAL → file) run when writes pause (see commit()); inside a long stream of writes
        // only once the WAL reaches 64 MB, so a request rarely waits for one.
        this.sql.exec('PRAGMA wal_autocheckpoint = 16384');
      }
    } catch (err) {
      throw new SandboxDataError(`Cannot open --data ${file}: ${(err as Error).message} (its directory must exist and be writable).`);
    }
    // 32 MB of page cache (the default is 2 MB): pages of a long list or a busy index stay in memory.
    this.sql.exec('PRAGMA cache_size = -32768');
    this.sql.exec('CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL)');
    const row = this.sql.prepare("SELECT value FROM counters WHERE name = 'seq'").get() as { value: number } | undefined;
    this.seq = Number(row?.value ?? 0);
  }

  table<T extends { id: string }>(name: string): Table<T> {
    let table = this.tables.get(name);
    if (!table) {
      for (const statement of createStatements(name)) this.sql.exec(statement);
      const existing = (this.sql.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).map((c) => c.name);
      for (const column of missingColumns(name, existing)) this.sql.exec(`ALTER TABLE ${name} ADD COLUMN ${column}`);
      this.keepCounts(name);
      table = new Table(this, name);
      this.tables.set(name, table);
    }
    return table as unknown as Table<T>;
  }

  /**
   * Once both tables of a count (schema.ts `counts`) exist: its triggers, and when they are new
   * (a new database, or a file from an older msgctl) every count set from the rows as they are.
   */
  private keepCounts(name: string): void {
    for (const count of countTriggers(name)) {
      const tables = this.sql.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)").get(count.owner, count.of) as { n: number };
      if (Number(tables.n) < 2) continue;
      const names = count.statements.map((statement) => /TRIGGER IF NOT EXISTS (\w+)/.exec(statement)![1]!);
      const present = this.sql.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => '?').join(', ')})`).get(...names) as { n: number };
      if (Number(present.n) === names.length) continue;
      for (const statement of count.statements) this.sql.exec(statement);
      this.sql.exec(count.recount);
    }
  }

  /**
   * True when the database has no sandbox world yet: a new --data file, or one whose first start
   * was stopped while seeding (its tables made, its seed never committed: holdCommits).
   */
  isEmpty(): boolean {
    if (!this.sql.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get()) return true;
    return !this.sql.prepare('SELECT 1 FROM meta LIMIT 1').get();
  }

  nextSeq(): number {
    this.seqDirty = true;
    this.touch();
    return ++this.seq;
  }

  /** The highest seq handed out so far: "everything that exists now" for snapshots. */
  currentSeq(): number {
    return this.seq;
  }

  /** See `generation`: compare two readings to know whether the data may have changed between them. */
  changeGeneration(): number {
    return this.generation;
  }

  /** Call after changing rows in place: they are written back now (or when deferChanges ends). */
  changed(): void {
    this.generation++;
    if (this.deferring > 0) {
      this.changePending = true;
      return;
    }
    for (const table of this.tables.values()) table.writeBack(true);
    for (const listener of this.listeners) listener();
  }

  /**
   * Runs `work` (synchronous) with the write-back of changed() held until it ends: one
   * write-back for a batch of records instead of one each. The write-back compares every
   * row handed out in this unit of work, and an import batch holds its import, whose
   * pending rows and results make a JSON text of up to a few MB: compared after every
   * patient it creates, that was ~3 ms a row (a 100,000-row import took over 25 minutes).
   * Only for work that writes through insert/put (visible to SQL at once) and reads
   * nothing it changed in place; the generation still moves at every change.
   */
  /**
   * Runs `work`, which spans several turns (the start's seed, which gives the event loop turns so
   * Ctrl-C is heard), as one transaction: nothing is committed at the ends of its turns, and the
   * caller settles after it. Stopped half-way (Ctrl-C, a kill -9), nothing of it is in the file,
   * and the next start on it seeds afresh; committed turn by turn, it left a world of 85,000
   * messages and 2 conversations that the next start took for a whole one.
   */
  async holdCommits<R>(work: () => Promise<R>): Promise<R> {
    this.holding++;
    try {
      return await work();
    } finally {
      this.holding--;
    }
  }

  deferChanges<R>(work: () => R): R {
    this.deferring++;
    try {
      return work();
    } finally {
      if (--this.deferring === 0 && this.changePending) {
        this.changePending = false;
        this.changed();
      }
    }
  }

  /**
   * Ends the unit of work without ending the turn: rows changed in place are written back and
   * later reads parse fresh objects; the transaction stays open for the commit at the end of
   * the turn. For one background step (context.ts `later`): the steps that fall due together
   * run in one turn (hundreds of delivery steps when the sandbox is behind), and each changed()
   * in each of them compared every row all of them had handed out, so a sandbox that fell
   * behind spent more per message and fell further behind.
   */
  endUnitOfWork(): void {
    if (this.closed) return;
    for (const table of this.tables.values()) table.writeBack(false);
    for (const table of this.tables.values()) table.release();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A cached prepared statement (for statements that always run to completion). */
  statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.sql.prepare(sql)));
    return statement;
  }

  /**
   * A cached statement's rows as arrays of its columns, in order. For pages read in bulk: a
   * row object (null prototype, a property per column) cost node:sqlite more than all the
   * rest a GET /patients page does with the row (bench/sandbox-db.mjs, quick paired runs:
   * ~49% -> ~70% of the same statement on bare fastify, which reads arrays too). Node
   * before 22.16 has no arrays: its objects are turned into arrays here.
   */
  rowsAsArrays(sql: string, params: SQLInputValue[]): unknown[][] {
    let statement = this.arrayStatements.get(sql);
    if (!statement) {
      statement = this.sql.prepare(sql);
      if (typeof statement.setReturnArrays === 'function') statement.setReturnArrays(true);
      this.arrayStatements.set(sql, statement);
    }
    const rows = statement.all(...params) as unknown[];
    return rows.length === 0 || Array.isArray(rows[0]) ? (rows as unknown[][]) : rows.map((row) => Object.values(row as object));
  }

  prepare(sql: string): StatementSync {
    return this.sql.prepare(sql);
  }

  borrow(sql: string): StatementSync {
    return this.idle.get(sql)?.pop() ?? this.sql.prepare(sql);
  }

  giveBack(sql: string, statement: StatementSync): void {
    let list = this.idle.get(sql);
    if (!list) this.idle.set(sql, (list = []));
    if (list.length < 4) list.push(statement);
  }

  /**
   * Runs a read-only request handler (GET): rows it reads are not compared
   * for in-place changes at the end of the unit of work (changed() still
   * writes back everything), which would cost a stringify per row served.
   */
  reading<T>(fn: () => T): T {
    this.readingDepth++;
    try {
      return fn();
    } finally {
      this.readingDepth--;
    }
  }

  isReading(): boolean {
    return this.readingDepth > 0;
  }

  /**
   * Resolves once everything written so far is committed (on disk with a
   * file). Requests finishing in the same turn share one commit: four
   * concurrent writers cost one fsync per turn, not one each.
   */
  durable(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.touch();
    });
  }

  beginWrite(): void {
    this.generation++;
    if (this.inTransaction || this.closed) return;
    this.sql.exec('BEGIN IMMEDIATE');
    this.inTransaction = true;
    this.touch();
  }

  /** Something was read or written: end the unit of work at the end of this turn. */
  touch(): void {
    if (this.readingDepth === 0) this.generation++;
    if (this.settleScheduled || this.closed) return;
    this.settleScheduled = true;
    setImmediate(() => this.settle(false));
  }

  /**
   * Writes back changed rows, commits, and ends the unit of work. On disk (fsynced) when
   * `durable` or when a request waits in durable(); called from outside (start, close) it is.
   */
  settle(durable = true): void {
    this.settleScheduled = false;
    if (this.closed) return;
    // Held (a seed over many turns): no commit at the ends of its turns; the caller's settle() makes one.
    if (this.holding > 0 && !durable && this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    try {
      this.commit(durable || waiters.length > 0);
    } catch (err) {
      for (const w of waiters) w.reject(err as Error);
      throw err;
    }
    for (const w of waiters) w.resolve();
  }

  /** `durable`: someone waits for this commit to be on disk (see the top of this file). */
  private commit(durable: boolean): void {
    for (const table of this.tables.values()) table.writeBack(false);
    if (this.seqDirty) this.writeSeq();
    if (this.inTransaction) {
      this.inTransaction = false;
      this.sql.exec('COMMIT');
      if (this.file) {
        this.unsynced = true;
        this.checkpointWhenIdle();
      }
    }
    // The synchronous mode cannot change inside a transaction, and when one begins nobody knows
    // yet whether a request will wait for it: so every commit is NORMAL, and one that is waited
    // for is followed by a one-row FULL commit, whose fsync of the WAL covers every frame before it.
    if (durable && this.unsynced) {
      this.setSync('FULL');
      this.beginWrite();
      // A row that changes: a commit that leaves every page as it was writes no frame and fsyncs nothing.
      this.statement("INSERT INTO counters (name, value) VALUES ('syncs', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1").run();
      this.inTransaction = false;
      this.sql.exec('COMMIT');
      this.setSync('NORMAL');
      this.unsynced = false;
    }
    for (const table of this.tables.values()) table.release();
  }

  private writeSeq(): void {
    this.beginWrite();
    this.statement("INSERT INTO counters (name, value) VALUES ('seq', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value").run(this.seq);
    this.seqDirty = false;
  }

  private setSync(mode: 'FULL' | 'NORMAL'): void {
    this.sql.exec(`PRAGMA synchronous = ${mode}`);
  }

  private checkpointWhenIdle(): void {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = null;
      if (!this.closed && !this.inTransaction) this.sql.exec('PRAGMA wal_checkpoint(PASSIVE)');
    }, 250);
    this.checkpointTimer.unref();
  }

  close(): void {
    if (this.closed) return;
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.settle();
    this.closed = true;
    // Closing checkpoints the WAL into the file and removes FILE-wal and FILE-shm.
    this.sql.close();
  }
}

/**
 * The --data file holds patient data and credentials: it is the user's alone (0600), whatever
 * the umask. A new file is created here, exclusively, before SQLite opens it; SQLite then
 * creates the WAL, shared-memory and rollback-journal files with the database file's mode
 * (and puts it back if the umask took bits away). An existing file, and side files an earlier
 * run left (after a kill -9), are tightened to 0600 first: an older msgctl made them 0644.
 * (`msgctl sandbox` has refused, before, any that is not the user's own or that others can write.)
 * The sandbox creates no folders: --data's folder must exist, so a typo is an error.
 */
function makePrivate(file: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      fchmodSync(fd, 0o600);
    } finally {
      closeSync(fd);
    }
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOENT: no such folder, which SQLite's own open reports below with the usual message.
    if (code === 'ENOENT') return;
    if (code !== 'EEXIST') throw new SandboxDataError(`Cannot create --data ${file}: ${(err as Error).message}`);
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(path, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && path !== file) continue;
      throw new SandboxDataError(`Cannot make --data ${path} private (0600): ${(err as Error).message}`);
    }
  }
}

/** `--data` must be a SQLite file (or new/empty): an older JSON snapshot is refused, not overwritten. */
function refuseNonSqlite(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new SandboxDataError(`Cannot open --data ${file}: ${(err as Error).message}`);
  }
  const head = Buffer.alloc(16);
  let read: number;
  try {
    read = readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (read === 0 || head.toString('latin1') === SQLITE_MAGIC) return;
  const looksJson = head.toString('utf8').trimStart().startsWith('{');
  throw new SandboxDataError(
    looksJson
      ? `${file} is a JSON snapshot from an older msgctl sandbox; the sandbox now keeps its data in SQLite. ` +
          'Start with a new --data file (the old file is left as it is).'
      : `${file} is not a sandbox data file (SQLite database); refusing to overwrite it.`,
  );
}
