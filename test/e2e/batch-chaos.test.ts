/**
 * Exactly once under fire: a 100-row batch against a sandbox that answers
 * 429/500/503 and drops connections after doing the work, killed with
 * SIGKILL part-way, then re-run until nothing is left. Every valid row must
 * end with exactly one message, opted-out rows with none.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { useSandbox } from '../helpers/sandbox.js';
import { binPath, jsonLines, msgctl, sandboxEnv } from '../helpers/cli.js';
import { reminderRows, TEMPLATE, writeReminderCsv } from '../fixtures/batch/reminders.js';

// Resets after the work are the hard case for exactly-once and come most often; a 429 holds the
// whole batch for its Retry-After (1 s), so a few are enough to prove the batch waits and resumes.
const sandbox = useSandbox({ chaos: '429=0.02,500=0.05,503=0.05,reset=0.08' });
const sb = () => sandbox.current.sb;
const dir = mkdtempSync(join(tmpdir(), 'msgctl-batch-chaos-'));

/** Complete entries of a journal (a line cut off by the kill has no newline yet). */
const journalEntries = (path: string): Array<{ row: number; key: string }> =>
  existsSync(path)
    ? readFileSync(path, 'utf8').split('\n').slice(1, -1).map((l) => JSON.parse(l))
    : [];
const journalRows = (path: string) => journalEntries(path).map((e) => e.row);

describe('send --csv under faults and a kill -9', () => {
  it('sends each of 100 rows exactly once across a killed run and re-runs', { timeout: 300_000 }, async () => {
    const rows = reminderRows(100, { tag: 'chaos' });
    const csv = join(dir, 'chaos.csv');
    writeReminderCsv(csv, rows);
    const journal = join(dir, 'chaos.journal');
    const env = sandboxEnv(sandbox.current);
    const args = ['send', '--csv', csv, '--template', TEMPLATE, '--journal', journal, '--json'];

    const first = execa(process.execPath, [binPath(), ...args], { env, extendEnv: false, reject: false });
    for (let waited = 0; journalRows(journal).length < 30; waited += 10) {
      if (waited > 120_000) throw new Error(`the journal never reached 30 rows: ${await first}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.kill('SIGKILL');
    const killed = await first;
    expect(killed.signal).toBe('SIGKILL');
    const journalledByKilledRun = journalEntries(journal);
    expect(journalledByKilledRun.length).toBeLessThan(rows.length);
    const killedAt = sandbox.current.testing.requests().length;

    let last: Awaited<ReturnType<typeof msgctl>> | undefined;
    let outcomes = new Map<number, any>();
    for (let run = 1; run <= 8; run++) {
      last = await msgctl(args, { env, timeout: 240_000 });
      expect([0, 10], last.stderr).toContain(last.exitCode);
      outcomes = new Map(jsonLines(last.stdout).map((l) => [l.row, l]));
      if (![...outcomes.values()].some((l) => l.retryable)) break;
    }
    // The re-run took over the dead run's lock and resumed, not restarted.
    expect(last!.stderr).toMatch(/already done/);
    expect(outcomes.size).toBe(rows.length);

    for (const row of rows) {
      const stored = sb().db.messages.filter((m) => m.body === row.body);
      const line = outcomes.get(row.row);
      if (row.kind === 'new') {
        expect(stored, `row ${row.row}`).toHaveLength(1);
        expect(line.outcome).toBe('sent');
        if (!line.already_done) expect(line.message_id).toBe(stored[0]!.id);
      } else {
        expect(stored, `row ${row.row}`).toHaveLength(0);
        expect(line).toMatchObject({ outcome: 'skipped' });
        if (!line.already_done) expect(line.code).toBe('patient_opted_out');
      }
    }

    // Each row was journalled once, and no row was ever sent under two keys.
    const journalled = journalRows(journal);
    expect(journalled.sort((a, b) => a - b)).toEqual(rows.map((r) => r.row));
    const posts = sandbox.current.testing.requests().filter((q) => q.method === 'POST' && q.path === '/patient-messages');
    expect(new Set(posts.map((q) => q.idempotencyKey)).size).toBe(rows.length);
    // Rows the killed run had journalled were never sent again.
    const laterKeys = new Set(sandbox.current.testing.requests().slice(killedAt).map((q) => q.idempotencyKey));
    expect(journalledByKilledRun.filter((e) => laterKeys.has(e.key))).toEqual([]);
  });
});
