/**
 * The sandbox's whole state: named tables plus a few counters. Routes and
 * workers read and change it through domain functions; `--data FILE` makes
 * it persistent (see persist.ts). Single-threaded, so no locking is needed.
 */
import { Table } from './table.js';

export class SandboxStore {
  private readonly tables = new Map<string, Table<{ id: string }>>();
  /** Monotonic counter for ordering records created in the same millisecond. */
  private seq = 0;
  private readonly listeners = new Set<() => void>();

  table<T extends { id: string }>(name: string): Table<T> {
    let table = this.tables.get(name);
    if (!table) {
      table = new Table();
      this.tables.set(name, table);
    }
    return table as unknown as Table<T>;
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** Call after any change: persistence listens to save (debounced). */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): { version: 1; seq: number; tables: Record<string, unknown[]> } {
    const tables: Record<string, unknown[]> = {};
    for (const [name, table] of this.tables) tables[name] = table.toJSON();
    return { version: 1, seq: this.seq, tables };
  }

  restore(snapshot: { seq: number; tables: Record<string, { id: string }[]> }): void {
    this.seq = snapshot.seq;
    for (const [name, rows] of Object.entries(snapshot.tables)) this.table(name).load(rows);
  }
}
