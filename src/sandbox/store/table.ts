/**
 * An insertion-ordered collection of records keyed by id. Tables are created
 * on demand by name, so each sandbox domain declares its own without editing
 * a central schema; the store persists every table generically.
 */
export class Table<T extends { id: string }> {
  private readonly rows = new Map<string, T>();

  get size(): number {
    return this.rows.size;
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  insert(row: T): T {
    if (this.rows.has(row.id)) throw new Error(`duplicate id ${row.id}`);
    this.rows.set(row.id, row);
    return row;
  }

  /** Replaces or inserts. */
  put(row: T): T {
    this.rows.set(row.id, row);
    return row;
  }

  delete(id: string): boolean {
    return this.rows.delete(id);
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
    for (const row of rows) this.rows.set(row.id, row);
  }
}
