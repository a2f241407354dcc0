import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxStore } from '../../src/sandbox/store/store.js';

interface Row {
  id: string;
  phone: string | null;
  n?: number;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'msgctl-store-'));
  dirs.push(d);
  return d;
}

describe('SandboxStore (SQLite)', () => {
  it('deferChanges holds the write-back of changed() until the work ends, and moves the generation at once', () => {
    const store = new SandboxStore();
    const table = store.table<Row>('things');
    table.insert({ id: 'a', phone: '+1' });
    store.settle();
    const storedPhone = () => (JSON.parse((store.sql.prepare('SELECT data FROM things WHERE id = ?').get('a') as { data: string }).data) as Row).phone;
    const before = store.changeGeneration();
    store.deferChanges(() => {
      table.get('a')!.phone = '+2';
      store.changed();
      expect(store.changeGeneration()).toBeGreaterThan(before);
      expect(storedPhone()).toBe('+1'); // not written back yet
      table.insert({ id: 'b', phone: '+3' }); // inserts are visible at once
      expect((store.sql.prepare('SELECT count(*) AS n FROM things').get() as { n: number }).n).toBe(2);
    });
    expect(storedPhone()).toBe('+2'); // one write-back when the work ended
    // Without a change inside, ending the work writes nothing back.
    table.get('a')!.phone = '+4';
    store.deferChanges(() => undefined);
    expect(storedPhone()).toBe('+2');
    store.settle();
    expect(storedPhone()).toBe('+4');
  });

  it('keeps insertion order, finds by id, and writes back rows changed in place', () => {
    const store = new SandboxStore();
    const table = store.table<Row>('things');
    table.insert({ id: 'b', phone: '+1' });
    table.insert({ id: 'a', phone: '+2' });
    expect(() => table.insert({ id: 'a', phone: null })).toThrow(/duplicate id a/);
    expect([...table.values()].map((r) => r.id)).toEqual(['b', 'a']);
    // Within a unit of work the same id is the same object.
    expect(table.get('a')).toBe(table.get('a'));
    table.get('a')!.phone = '+3';
    store.changed();
    store.settle();
    expect(table.get('a')!.phone).toBe('+3');
    const b = table.get('b')!;
    b.n = 5; // changed in place without changed(): the end of the unit of work writes it back
    store.settle();
    const stored = store.sql.prepare('SELECT data FROM things WHERE id = ?').get('b') as { data: string };
    expect(JSON.parse(stored.data)).toEqual({ id: 'b', phone: '+1', n: 5 });
    // Still referenced here, so reading it again gives the same object.
    expect(table.get('b')).toBe(b);
    expect(table.delete('a')).toBe(true);
    expect(table.get('a')).toBeUndefined();
    expect(table.size).toBe(1);
    store.close();
  });

  it('keeps rows read by GETs across turns until a write of that id', () => {
    const store = new SandboxStore();
    const table = store.table<Row>('things');
    table.insert({ id: 'a', phone: '+1' });
    store.settle();
    const read = store.reading(() => table.get('a')!);
    store.settle();
    expect(store.reading(() => table.get('a'))).toBe(read);
    // A writer gets its own object; writing it back drops the cached one.
    const writer = table.get('a')!;
    writer.phone = '+2';
    store.changed();
    store.settle();
    expect(store.reading(() => table.get('a'))!.phone).toBe('+2');
    table.put({ id: 'a', phone: '+3' });
    store.settle();
    expect(store.reading(() => table.get('a'))!.phone).toBe('+3');
    store.close();
  });

  it('persists a --data file, seq included, and leaves no side files after close', () => {
    const dir = tempDir();
    const file = join(dir, 'sandbox.db');
    const first = new SandboxStore(file);
    first.table<Row>('things').insert({ id: 'x', phone: null });
    expect(first.nextSeq()).toBe(1);
    first.settle();
    first.close();
    expect(readdirSync(dir)).toEqual(['sandbox.db']);
    const second = new SandboxStore(file);
    expect(second.table<Row>('things').get('x')).toEqual({ id: 'x', phone: null });
    expect(second.nextSeq()).toBe(2);
    second.close();
  });

  it('fsyncs the commits a request waits for (with a frame of their own), and only those', async () => {
    const file = join(tempDir(), 'sandbox.db');
    const store = new SandboxStore(file);
    const table = store.table<Row>('things');
    store.settle();
    // Which commits run under synchronous=FULL (an fsync of the WAL), and whether they wrote a frame:
    // a commit that leaves every page as it was writes nothing and fsyncs nothing.
    const log: string[] = [];
    const exec = store.sql.exec.bind(store.sql);
    let full = false;
    store.sql.exec = (sql: string) => {
      if (/^PRAGMA synchronous = /.test(sql)) full = sql.endsWith('FULL');
      if (sql !== 'COMMIT') return exec(sql);
      const before = statSync(`${file}-wal`).size;
      exec(sql);
      log.push(full ? `fsynced commit ${statSync(`${file}-wal`).size > before ? 'with a frame' : 'writing nothing'}` : 'commit');
    };
    table.insert({ id: 'a', phone: null }); // a background write: nobody waits for it
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['commit']);
    table.insert({ id: 'b', phone: null }); // a request's write, answered once durable
    await store.durable();
    expect(log).toEqual(['commit', 'commit', 'fsynced commit with a frame']);
    table.get('b')!.n = 1;
    await store.durable();
    expect(log.slice(3)).toEqual(['commit', 'fsynced commit with a frame']);
    await store.durable(); // nothing written since the last fsync
    expect(log).toHaveLength(5);
    store.close();
  });

  it('refuses an old JSON snapshot given as --data, leaving it untouched', () => {
    const file = join(tempDir(), 'old.json');
    writeFileSync(file, '{"version":1,"seq":3,"tables":{}}');
    expect(() => new SandboxStore(file)).toThrow(/JSON snapshot from an older msgctl sandbox/);
    expect(existsSync(file)).toBe(true);
  });
});

describe('SandboxStore rows as arrays (textRows, for pages)', () => {
  const fill = () => {
    const store = new SandboxStore();
    const table = store.table<Row>('things');
    for (const [id, phone] of [['c', '+3'], ['a', null], ['b', '+2']] as const) table.insert({ id, phone });
    store.settle();
    return table;
  };
  const read = (table: ReturnType<typeof fill>) => table.textRows("t.data, 'x' || t.id", '1 = 1', [], 'id', 10);

  it('gives [id, ...columns] per row, in the order asked', () => {
    expect(read(fill())).toEqual([
      ['a', JSON.stringify({ id: 'a', phone: null }), 'xa'],
      ['b', JSON.stringify({ id: 'b', phone: '+2' }), 'xb'],
      ['c', JSON.stringify({ id: 'c', phone: '+3' }), 'xc'],
    ]);
  });

  it('gives the same arrays where node:sqlite has no setReturnArrays (Node before 22.16: row objects)', () => {
    const arrays = read(fill());
    const prototype = Object.getPrototypeOf(new SandboxStore().sql.prepare('SELECT 1')) as { setReturnArrays?: unknown };
    const own = Object.getOwnPropertyDescriptor(prototype, 'setReturnArrays');
    delete prototype.setReturnArrays;
    try {
      expect(typeof prototype.setReturnArrays).toBe('undefined');
      expect(read(fill())).toEqual(arrays);
    } finally {
      if (own) Object.defineProperty(prototype, 'setReturnArrays', own);
    }
  });
});

describe('SandboxStore counts kept by triggers (schema.ts counts)', () => {
  const countOf = (store: SandboxStore, id: string) =>
    Number((store.sql.prepare('SELECT conversation_count AS n FROM patients WHERE id = ?').get(id) as { n: number }).n);
  const truth = (store: SandboxStore, id: string) =>
    Number((store.sql.prepare('SELECT count(*) AS n FROM conversations WHERE patient_id = ?').get(id) as { n: number }).n);

  it("keeps each patient's conversation_count equal to a count of its conversations through inserts, moves, deletes and a late patient", () => {
    const store = new SandboxStore();
    const patients = store.table<{ id: string; orgId: string }>('patients');
    const conversations = store.table<{ id: string; patientId: string | null; title?: string }>('conversations');
    patients.insert({ id: 'p1', orgId: 'o' });
    patients.insert({ id: 'p2', orgId: 'o' });
    conversations.insert({ id: 'c1', patientId: 'p1' });
    conversations.insert({ id: 'c2', patientId: 'p1' });
    conversations.insert({ id: 'c3', patientId: null });
    expect([countOf(store, 'p1'), countOf(store, 'p2')]).toEqual([2, 0]);
    // Changed in place and written back at the end of the unit of work: moved to p2.
    conversations.get('c2')!.patientId = 'p2';
    store.settle();
    expect([countOf(store, 'p1'), countOf(store, 'p2')]).toEqual([1, 1]);
    conversations.put({ id: 'c2', patientId: 'p2', title: 'renamed' }); // same owner: no change
    conversations.put({ id: 'c3', patientId: 'p2' }); // from no patient to p2
    expect(countOf(store, 'p2')).toBe(2);
    conversations.delete('c1');
    expect(countOf(store, 'p1')).toBe(0);
    // A conversation naming a patient that does not exist yet counts once the patient is inserted.
    conversations.insert({ id: 'c4', patientId: 'p3' });
    patients.insert({ id: 'p3', orgId: 'o' });
    expect(countOf(store, 'p3')).toBe(1);
    // Rewriting a patient's record keeps its count.
    patients.put({ id: 'p2', orgId: 'o2' });
    for (const id of ['p1', 'p2', 'p3']) expect(countOf(store, id)).toBe(truth(store, id));
  });

  it('adds the column, its triggers and every count to a file made before they existed', () => {
    const file = join(tempDir(), 'old.db');
    const old = new SandboxStore(file);
    old.table<{ id: string }>('patients').insert({ id: 'p1' });
    old.table<{ id: string }>('patients').insert({ id: 'p2' });
    old.table<{ id: string; patientId: string }>('conversations').insert({ id: 'c1', patientId: 'p1' });
    old.table<{ id: string; patientId: string }>('conversations').insert({ id: 'c2', patientId: 'p1' });
    old.settle();
    // What an older msgctl left: no count column, no triggers.
    for (const { name } of old.sql.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as { name: string }[]) old.sql.exec(`DROP TRIGGER ${name}`);
    old.sql.exec('ALTER TABLE patients DROP COLUMN conversation_count');
    old.close();
    const store = new SandboxStore(file);
    store.table('patients');
    store.table('conversations');
    expect([countOf(store, 'p1'), countOf(store, 'p2')]).toEqual([2, 0]);
    store.table<{ id: string; patientId: string }>('conversations').insert({ id: 'c3', patientId: 'p2' });
    expect(countOf(store, 'p2')).toBe(1);
    store.close();
  });
});
