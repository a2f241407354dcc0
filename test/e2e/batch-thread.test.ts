/**
 * `send --csv` runs in a worker thread with a bounded heap (src/cli/batch-thread.ts).
 * What a real process must still do through the thread: every output line
 * reaches stdout, Ctrl-C and SIGTERM reach the batch (journal what is in flight,
 * exit 130/143 with how to resume), and a re-run finishes each row once.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { useSandbox } from '../helpers/sandbox.js';
import { binPath, jsonLines, msgctl, sandboxEnv } from '../helpers/cli.js';
import { reminderRows, TEMPLATE, writeReminderCsv } from '../fixtures/batch/reminders.js';
import { runsInBatchThread } from '../../src/cli/cli.js';
import { startCli } from '../helpers/background-cli.js';

const sandbox = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'msgctl-batch-thread-'));

const journalRows = (path: string): number[] =>
  existsSync(path)
    ? readFileSync(path, 'utf8').split('\n').slice(1, -1).map((l) => (JSON.parse(l) as { row: number }).row)
    : [];

describe('the batch thread', () => {
  it('is used by send --csv and imports create only', () => {
    expect(runsInBatchThread(['send', '--csv', 'f.csv', '--template', 'x'])).toBe(true);
    expect(runsInBatchThread(['--json', 'send', '--csv=f.csv'])).toBe(true);
    expect(runsInBatchThread(['--profile', 'send', 'imports', 'create', 'f.csv'])).toBe(true);
    expect(runsInBatchThread(['send', '--to', '+15555550123', 'hi'])).toBe(false);
    expect(runsInBatchThread(['send', '--csv', 'f.csv', '--help'])).toBe(false);
    expect(runsInBatchThread(['imports', 'list'])).toBe(false);
    expect(runsInBatchThread(['patients', 'list'])).toBe(false);
  });

  for (const [signal, exitCode, word] of [['SIGINT', 130, 'Interrupted'], ['SIGTERM', 143, 'Interrupted']] as const) {
    it(`${signal} mid-batch: journals what was answered, exits ${exitCode}; a re-run sends the rest once`, { timeout: 120_000 }, async () => {
      // Enough rows that the signal lands mid-batch (it comes once 50 are journalled), few enough
      // that the re-run's rest is quick.
      const rows = reminderRows(200, { tag: `thread-${signal}` });
      const csv = join(dir, `${signal}.csv`);
      writeReminderCsv(csv, rows);
      const journal = join(dir, `${signal}.journal`);
      const env = sandboxEnv(sandbox.current);
      const args = ['send', '--csv', csv, '--template', TEMPLATE, '--journal', journal, '--json'];

      const first = execa(process.execPath, [binPath(), ...args], { env, extendEnv: false, reject: false, stripFinalNewline: false });
      for (let waited = 0; journalRows(journal).length < 50; waited += 10) {
        if (waited > 60_000) throw new Error(`the journal never reached 50 rows: ${JSON.stringify(await first)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      first.kill(signal);
      const stopped = await first;
      expect(stopped.exitCode, String(stopped.stderr)).toBe(exitCode);
      expect(String(stopped.stderr)).toContain(word);
      expect(String(stopped.stderr)).toMatch(/run the same command again/);
      // Whole lines only, and every row the journal holds was also printed.
      const printed = new Set(jsonLines(String(stopped.stdout)).map((l) => l.row as number));
      const journalled = journalRows(journal);
      expect(journalled.length).toBeLessThan(rows.length);
      for (const row of journalled) expect(printed.has(row), `row ${row}`).toBe(true);

      const rerun = await msgctl(args, { env, timeout: 120_000 });
      expect(rerun.exitCode, rerun.stderr).toBe(10); // the opted-out rows are skipped
      const outcomes = jsonLines(rerun.stdout);
      expect(outcomes).toHaveLength(rows.length);
      // Each row's message exists once: sent by the interrupted run or the re-run, never both.
      const sent = new Map<string, number>();
      for (const m of sandbox.current.sb.db.messages.filter(() => true)) sent.set(m.body, (sent.get(m.body) ?? 0) + 1);
      for (const row of rows) expect(sent.get(row.body) ?? 0, `row ${row.row}`).toBe(row.kind === 'new' ? 1 : 0);
    });
  }

  it('prints a row\'s line within its output window, while other rows are still being sent', { timeout: 40_000 }, async () => {
    // The first request to arrive is held for 20 s (far longer than any start-up under load);
    // the other is answered at once, and its line must reach the pipe within send-pass.ts's
    // 100 ms window, not at the end of the batch: while the held one is still unanswered.
    const rows = reminderRows(2, { tag: 'window' });
    const csv = join(dir, 'window.csv');
    writeReminderCsv(csv, rows);
    sandbox.current.testing.injectFaults({ holdMs: 20_000, method: 'POST', path: '/patient-messages' });
    const cli = startCli(['send', '--csv', csv, '--template', TEMPLATE, '--concurrency', '2', '--json'], sandboxEnv(sandbox.current));
    try {
      const [line] = await cli.waitForLines(1, 19_000);
      // The held row is still unanswered: the sandbox stores a held request's message after the hold.
      const stored = rows.filter((row) => sandbox.current.sb.db.messages.filter((m) => m.body === row.body).length > 0);
      expect(stored).toHaveLength(1);
      expect(cli.child.exitCode).toBeNull();
      const printed = JSON.parse(line!) as { row: number; outcome: string };
      expect(printed.outcome).toBe('sent');
      expect([2, 3]).toContain(printed.row);
    } finally {
      // Not a graceful stop: that would wait out the held request (the signal tests above cover it).
      await cli.stop('SIGKILL');
    }
  });
});
