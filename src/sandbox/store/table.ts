/**
 * One SQL table of records (see schema.ts): `id`, `data` (the record as
 * JSON) and generated columns for what is queried. Rows handed out are
 * plain objects that domain code changes in place, as it always has: the
 * table remembers what it handed out in the current unit of work (one turn
 * of the event loop, one background step, or until `store.settle()`), and writes back every row
 * whose JSON changed. While an object handed out is still referenced
 * anywhere (a weak map), reading its id again gives that same object, so a
 * worker or test holding a record sees what others wrote through it. A
 * record changed in place in a later turn must be read again (or `put`) in
 * that turn to be saved.
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';

/** What a table needs of the store that owns it (store.ts implements it; declared here so neither file imports the other's module both ways). */
export interface TableHost {
  statement(sql: string): StatementSync;
  rowsAsArrays(sql: string, params: SQLInputValue[]): unknown[][];
  borrow(sql: string): StatementSync;
  giveBack(sql: string, statement: StatementSync): void;
  isReading(): boolean;
  beginWrite(): void;
  touch(): void;
}

interface Handed<T> {
  ref: WeakRef<T & object>;
  /** The JSON last written for this row: a different stringify means it changed. */
  json: string;
}

export interface StoredRow {
  id: string;
  data: string;
}

const READ_CACHE_ROWS = 2000;

export class Table<T extends { id: string }> {
  /**
   * Rows handed out in this unit of work (held strongly until it ends).
   * `reading`: handed out inside store.reading() (a GET), so the end of the
   * unit of work does not stringify it to look for changes; changed() does.
   */
  private handed = new Map<string, { row: T; entry: Handed<T>; reading: boolean }>();
  /**
   * Rows read by GET handlers, kept across turns (at most READ_CACHE_ROWS,
   * oldest dropped first) so a long list does not re-read the same
   * conversation or patient for every page; any write of the id drops it.
   */
  private readonly readCache = new Map<string, T>();
  /** Every handed-out row still referenced somewhere, by id. */
  private readonly live = new Map<string, Handed<T>>();
  private readonly gone = new FinalizationRegistry<{ id: string; entry: Handed<T> }>(({ id, entry }) => {
    if (this.live.get(id) === entry) this.live.delete(id);
  });

  /** A derived text column (schema.ts `derived`) and the function making it from a record, written with `data`. */
  private derived: { column: string; of: (row: T) => string | null } | null = null;

  constructor(
    private readonly store: TableHost,
    readonly name: string,
  ) {}

  /** Writes `column` with every row from now on: `of(row)`, or NULL when it has none. */
  derive(column: string, of: (row: T) => string | null): this {
    this.derived = { column, of };
    return this;
  }

  get size(): number {
    return Number((this.store.statement(`SELECT count(*) AS n FROM ${this.name}`).get() as { n: number }).n);
  }

  get(id: string): T | undefined {
    const known = this.handed.get(id) ?? this.keep(id);
    if (known) return this.held(known);
    if (this.store.isReading()) {
      const cached = this.readCache.get(id);
      if (cached) return cached;
    }
    const stored = this.store.statement(`SELECT id, data FROM ${this.name} WHERE id = ?`).get(id) as StoredRow | undefined;
    return stored ? this.adopt(stored) : undefined;
  }

  insert(row: T): T {
    return this.remember(row, this.insertRow(row));
  }

  /**
   * Inserts a row the caller will not change afterwards (bulk loads such as
   * --seed-messages): it is not remembered, so nothing compares it at the
   * end of the unit of work.
   */
  insertOnly(row: T): void {
    this.insertRow(row);
  }

  private insertRow(row: T): string {
    this.readCache.delete(row.id);
    this.store.beginWrite();
    const json = JSON.stringify(row);
    this.handed.delete(row.id);
    try {
      if (this.derived) {
        this.store.statement(`INSERT INTO ${this.name} (id, data, ${this.derived.column}) VALUES (?, ?, ?)`).run(row.id, json, this.derived.of(row));
      } else this.store.statement(`INSERT INTO ${this.name} (id, data) VALUES (?, ?)`).run(row.id, json);
    } catch (err) {
      if ((err as { errcode?: number }).errcode === 1555) throw new Error(`duplicate id ${row.id}`);
      throw err;
    }
    return json;
  }

  /** Replaces or inserts (insertion order is kept for an existing id). */
  put(row: T): T {
    this.readCache.delete(row.id);
    this.store.beginWrite();
    const json = JSON.stringify(row);
    this.handed.delete(row.id);
    if (this.derived) {
      const column = this.derived.column;
      this.store
        .statement(`INSERT INTO ${this.name} (id, data, ${column}) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, ${column} = excluded.${column}`)
        .run(row.id, json, this.derived.of(row));
    } else {
      this.store
        .statement(`INSERT INTO ${this.name} (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data`)
        .run(row.id, json);
    }
    return this.remember(row, json);
  }

  delete(id: string): boolean {
    this.readCache.delete(id);
    this.store.beginWrite();
    this.handed.delete(id);
    this.live.delete(id);
    return Number(this.store.statement(`DELETE FROM ${this.name} WHERE id = ?`).run(id).changes) > 0;
  }

  /** Every row in insertion order, read lazily. */
  values(): IterableIterator<T> {
    return this.query('1', [], 'rowid');
  }

  find(predicate: (row: T) => boolean): T | undefined {
    for (const row of this.values()) if (predicate(row)) return row;
    return undefined;
  }

  filter(predicate: (row: T) => boolean): T[] {
    const out: T[] = [];
    for (const row of this.values()) if (predicate(row)) out.push(row);
    return out;
  }

  /**
   * Rows matching a SQL condition over this table's columns (schema.ts), in
   * `orderBy` order, read lazily: a page stops reading once it is full.
   */
  *query(condition: string, params: SQLInputValue[], orderBy = 'rowid', limit?: number): Generator<T, undefined, undefined> {
    const sql = `SELECT id, data FROM ${this.name} WHERE ${condition} ORDER BY ${orderBy}${limit === undefined ? '' : ` LIMIT ${Math.floor(limit)}`}`;
    const statement = this.store.borrow(sql);
    const adopt = this.store.isReading() ? this.readOnly : this.adopt;
    try {
      for (const stored of statement.iterate(...params)) yield adopt(stored as unknown as StoredRow);
    } finally {
      this.store.giveBack(sql, statement);
    }
    return undefined;
  }

  /** Like query(), all at once (one step through SQLite: about twice as fast per row as a lazy walk). */
  where(condition: string, params: SQLInputValue[], orderBy = 'rowid', limit?: number): T[] {
    const sql = `SELECT id, data FROM ${this.name} WHERE ${condition} ORDER BY ${orderBy}${limit === undefined ? '' : ` LIMIT ${Math.floor(limit)}`}`;
    const rows = this.store.statement(sql).all(...params) as unknown as StoredRow[];
    return rows.map(this.store.isReading() ? this.readOnly : this.adopt);
  }

  /**
   * Stored rows as their text, not parsed, each an array: `[id, ...columns]` (SQL expressions
   * over this table as `t`: `t.data`, a derived text, a correlated count). For answers built
   * from the stored JSON itself; a row with changes in memory not yet written back
   * (inMemory()) must be served from that object instead.
   */
  textRows(columns: string, condition: string, params: SQLInputValue[], orderBy: string, limit: number): unknown[][] {
    return this.store.rowsAsArrays(`SELECT t.id AS id, ${columns} FROM ${this.name} AS t WHERE ${condition} ORDER BY ${orderBy} LIMIT ${Math.floor(limit)}`, params);
  }

  /** The object handed out for `id` in this unit of work, or still held somewhere (its stored text may be older). */
  inMemory(id: string): T | undefined {
    // Most pages meet an empty table of held rows: then no lookup (hashing a page's fresh id strings).
    if (this.handed.size === 0 && this.live.size === 0) return undefined;
    return this.handed.get(id)?.row ?? this.live.get(id)?.ref.deref();
  }

  count(condition: string, params: SQLInputValue[]): number {
    return Number((this.store.statement(`SELECT count(*) AS n FROM ${this.name} WHERE ${condition}`).get(...params) as { n: number }).n);
  }

  toJSON(): T[] {
    return [...this.values()];
  }

  /** Writes back rows changed in place since they were handed out (`all`: those read by a GET too). */
  writeBack(all: boolean): void {
    for (const { row, entry, reading } of this.handed.values()) {
      if (reading && !all) continue;
      const json = JSON.stringify(row);
      if (json === entry.json) continue;
      this.readCache.delete(row.id);
      this.store.beginWrite();
      if (this.derived) {
        this.store.statement(`UPDATE ${this.name} SET data = ?, ${this.derived.column} = ? WHERE id = ?`).run(json, this.derived.of(row), row.id);
      } else this.store.statement(`UPDATE ${this.name} SET data = ? WHERE id = ?`).run(json, row.id);
      entry.json = json;
    }
  }

  /** Ends the unit of work: later reads parse fresh objects. */
  release(): void {
    this.handed.clear();
  }

  private readonly adopt = (stored: StoredRow): T => {
    const known = this.handed.get(stored.id) ?? this.keep(stored.id);
    if (known) return this.held(known);
    return this.remember(JSON.parse(stored.data) as T, stored.data);
  };

  /**
   * A row of a range read by a GET (a page of a list): served once and never changed, so
   * nothing remembers it (no map entries, no read-cache churn pushing out the rows that
   * point lookups read again, such as a page's conversations and patients). A row someone
   * still holds is still that same object.
   */
  private readonly readOnly = (stored: StoredRow): T => {
    const known = this.handed.get(stored.id) ?? this.keep(stored.id);
    if (known) return known.row;
    return this.readCache.get(stored.id) ?? (JSON.parse(stored.data) as T);
  };

  /** A row read again outside a GET may be changed in place: compare it at the end of the unit of work. */
  private held(known: { row: T; reading: boolean }): T {
    if (!this.store.isReading()) {
      known.reading = false;
      // It may be changed in place now: the store's change generation must move (see store.ts).
      this.store.touch();
    }
    return known.row;
  }

  /** A row handed out in an earlier unit of work and still referenced: hand out the same object again. */
  private keep(id: string): { row: T; entry: Handed<T>; reading: boolean } | undefined {
    const entry = this.live.get(id);
    const row = entry?.ref.deref();
    if (!entry || !row) return undefined;
    const held = { row, entry, reading: this.store.isReading() };
    this.handed.set(id, held);
    this.store.touch();
    return held;
  }

  private remember(row: T, json: string): T {
    const old = this.live.get(row.id);
    const reading = this.store.isReading();
    if (old?.ref.deref() === row) {
      old.json = json;
      this.handed.set(row.id, { row, entry: old, reading });
    } else if (reading) {
      // Read to answer a GET: nobody keeps it, so no weak reference (a page of a long list would leave thousands).
      this.handed.set(row.id, { row, entry: { ref: { deref: () => row } as WeakRef<T & object>, json }, reading });
      if (this.readCache.size >= READ_CACHE_ROWS) this.readCache.delete(this.readCache.keys().next().value!);
      this.readCache.set(row.id, row);
    } else {
      const entry: Handed<T> = { ref: new WeakRef(row as T & object), json };
      this.live.set(row.id, entry);
      this.gone.register(row as T & object, { id: row.id, entry });
      this.handed.set(row.id, { row, entry, reading });
    }
    this.store.touch();
    return row;
  }
}
