import { afterAll, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DoneRows, JournalWriter, lockJournal, readJournal, type JournalHeader } from '../../src/cli/batch/journal.js';

const dir = mkdtempSync(join(tmpdir(), 'msgctl-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `j${++n}`, 'batch.jsonl');
const header = (batch = 'b-1'): JournalHeader => ({ journal: 'msgctl send --csv', version: 1, batch, csv: '/x.csv', created_at: 't' });
const entry = (row: number, outcome: 'sent' | 'skipped' | 'failed' = 'sent') => ({ row, outcome, key: `k${row}`, at: 't' });

async function writeJournal(path: string, rows: number[], batch = 'b-1'): Promise<void> {
  const writer = await JournalWriter.open(path, header(batch), await readJournal(path));
  for (const row of rows) writer.record(entry(row));
  await writer.close();
}

describe('journal', () => {
  it('reads back what was written, with the batch id', async () => {
    const path = fresh();
    await writeJournal(path, [2, 3]);
    const writer = await JournalWriter.open(path, header(), await readJournal(path));
    writer.record(entry(7, 'skipped'));
    await writer.close();
    const state = await readJournal(path);
    expect(state.batch).toBe('b-1');
    expect([2, 3, 7, 4].map((r) => state.done.get(r))).toEqual(['sent', 'sent', 'skipped', undefined]);
    expect(state.done.size).toBe(3);
    expect(state.tornBytes).toBe(0);
  });

  it('treats a missing file as an empty journal', async () => {
    const state = await readJournal(join(dir, 'nope.jsonl'));
    expect(state).toMatchObject({ batch: null, completeBytes: 0, tornBytes: 0 });
    expect(state.done.size).toBe(0);
  });

  it('ignores a torn last line and cuts it off before appending', async () => {
    const path = fresh();
    await writeJournal(path, [2, 3]);
    appendFileSync(path, '{"row":4,"outcome":"se');
    const torn = await readJournal(path);
    expect(torn.done.get(4)).toBeUndefined();
    expect(torn.done.size).toBe(2);
    expect(torn.tornBytes).toBe('{"row":4,"outcome":"se'.length);
    expect(torn.unreadableLines).toBe(0);

    const writer = await JournalWriter.open(path, header(), torn);
    writer.record(entry(4));
    await writer.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1).map((l) => JSON.parse(l).row)).toEqual([2, 3, 4]);
    const healed = await readJournal(path);
    expect(healed.tornBytes).toBe(0);
    expect(healed.done.get(4)).toBe('sent');
  });

  it('ignores a torn line even when it happens to be complete JSON (no newline: not committed)', async () => {
    const path = fresh();
    await writeJournal(path, [2]);
    appendFileSync(path, JSON.stringify(entry(9)));
    expect((await readJournal(path)).done.get(9)).toBeUndefined();
  });

  it('skips garbage lines in the middle and counts them', async () => {
    const path = fresh();
    await writeJournal(path, [2]);
    appendFileSync(path, 'not json\n{"row":"x"}\n' + JSON.stringify(entry(5)) + '\n');
    const state = await readJournal(path);
    expect(state.unreadableLines).toBe(2);
    expect(state.done.get(5)).toBe('sent');
  });

  it('moves a journal of another batch aside and starts a new one', async () => {
    const path = fresh();
    await writeJournal(path, [2], 'old');
    await writeJournal(path, [3], 'new');
    const state = await readJournal(path);
    expect(state.batch).toBe('new');
    expect(state.done.get(2)).toBeUndefined();
    expect((await readJournal(`${path}.previous`)).done.get(2)).toBe('sent');
  });

  it('refuses to overwrite a file that is not a journal', async () => {
    const path = fresh();
    await writeJournal(path, []);
    writeFileSync(path, 'precious notes\n');
    await expect(JournalWriter.open(path, header(), await readJournal(path))).rejects.toThrow(/not a msgctl batch journal/);
    expect(readFileSync(path, 'utf8')).toBe('precious notes\n');
  });

  it('commits within the window without an explicit flush', async () => {
    const path = fresh();
    const writer = await JournalWriter.open(path, header(), await readJournal(path), 10);
    writer.record(entry(2));
    // Read synchronously, before the event loop can turn: the commit waits for the window's
    // timer, so the row cannot be on disk yet (an awaited read could outlast a loaded machine's
    // 10 ms and see it committed: it did, under strace).
    expect(readFileSync(path, 'utf8')).not.toContain('"row":2');
    // No flush: the window's own commit (however long a loaded disk takes to fsync).
    await expect.poll(async () => (await readJournal(path)).done.get(2), { timeout: 10_000, interval: 20 }).toBe('sent');
    expect(readFileSync(path, 'utf8')).toContain('"row":2'); // what the first check looked for
    await writer.close();
  });
});

describe('DoneRows', () => {
  it('grows for large row numbers and counts distinct rows', () => {
    const done = new DoneRows();
    done.set(5, 'sent');
    done.set(1_000_000, 'failed');
    done.set(5, 'skipped');
    expect(done.get(5)).toBe('skipped');
    expect(done.get(1_000_000)).toBe('failed');
    expect(done.get(2_000_000)).toBeUndefined();
    expect(done.size).toBe(2);
  });
});

describe('lockJournal', () => {
  it('refuses a second sender while the first holds the lock, and frees it on release', async () => {
    const path = fresh();
    const release = await lockJournal(path);
    // A live pid other than ours (the parent) holds it.
    writeFileSync(`${path}.lock`, String(process.ppid));
    await expect(lockJournal(path)).rejects.toThrow(/Another msgctl \(pid \d+, .*last active \d+ s ago\) is sending this batch/);
    await release();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('takes over a lock left by a process that is gone', async () => {
    const path = fresh();
    const release = await lockJournal(path);
    writeFileSync(`${path}.lock`, '99999999');
    const again = await lockJournal(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    await again();
    await release();
  });
});
