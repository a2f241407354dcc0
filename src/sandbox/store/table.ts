/**
 * An insertion-ordered collection of records keyed by id. Tables are created
 * on demand by name, so each sandbox domain declares its own without editing
 * a central schema; the store persists every table generically.
 */
interface SecondaryIndex<T> {
  keyOf: (row: T) => string | null;
  ids: Map<string, Set<string>>;
  keyById: Map<string, string | null>;
}

export class Table<T extends { id: string }> {
  private readonly rows = new Map<string, T>();
  private readonly indexes = new Map<string, SecondaryIndex<T>>();

  get size(): number {
    return this.rows.size;
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  insert(row: T): T {
    if (this.rows.has(row.id)) throw new Error(`duplicate id ${row.id}`);
    this.rows.set(row.id, row);
    this.reindex(row);
    return row;
  }

  /** Replaces or inserts. Call it after changing a row in place, so indexes follow. */
  put(row: T): T {
    this.rows.set(row.id, row);
    this.reindex(row);
    return row;
  }

  delete(id: string): boolean {
    for (const index of this.indexes.values()) moveKey(index, id, null);
    return this.rows.delete(id);
  }

  /**
   * A lookup by a derived key (null: not indexed), kept current on every
   * insert, put, delete and load, so finding rows by a field costs the rows
   * found rather than a scan of the table. Rows come back in insertion order.
   */
  index(name: string, keyOf: (row: T) => string | null): (key: string) => T[] {
    let index = this.indexes.get(name);
    if (!index) {
      index = { keyOf, ids: new Map(), keyById: new Map() };
      this.indexes.set(name, index);
      for (const row of this.rows.values()) moveKey(index, row.id, keyOf(row));
    }
    const found = index;
    return (key) => [...(found.ids.get(key) ?? [])].map((id) => this.rows.get(id)!);
  }

  private reindex(row: T): void {
    for (const index of this.indexes.values()) moveKey(index, row.id, index.keyOf(row));
  }

  values(): IterableIterator<T> {
    return this.rows.values();
  }

  find(predicate: (row: T) => boolean): T | undefined {
    for (const row of this.rows.values()) if (predicate(row)) return row;
    return undefined;
  }

  filter(predicate: (row: T) => boolean): T[] {
    const out: T[] = [];
    for (const row of this.rows.values()) if (predicate(row)) out.push(row);
    return out;
  }

  toJSON(): T[] {
    return [...this.rows.values()];
  }

  load(rows: T[]): void {
    this.rows.clear();
    for (const index of this.indexes.values()) {
      index.ids.clear();
      index.keyById.clear();
    }
    for (const row of rows) this.put(row);
  }
}

function moveKey<T>(index: SecondaryIndex<T>, id: string, key: string | null): void {
  const old = index.keyById.get(id) ?? null;
  if (old === key && index.keyById.has(id)) return;
  if (old !== null) {
    const set = index.ids.get(old);
    set?.delete(id);
    if (set && set.size === 0) index.ids.delete(old);
  }
  if (key === null) index.keyById.delete(id);
  else {
    index.keyById.set(id, key);
    let set = index.ids.get(key);
    if (!set) index.ids.set(key, (set = new Set()));
    set.add(id);
  }
}
