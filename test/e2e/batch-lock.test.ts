/**
 * `send --csv` and a journal lock left behind by a crash, whose PID now
 * belongs to some other live process (PIDs are reused; Windows reuses them fast);
 * and a batch whose stdout fails, which ends the process at once and must not
 * leave its lock behind.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, jsonLines, msgctl, sandboxEnv } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

describe.skipIf(process.platform !== 'linux')('send --csv with a stale lock', () => {
  it('a lock naming a live unrelated PID does not block the batch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-lock-e2e-'));
    const csv = join(dir, 'night.csv');
    writeFileSync(csv, 'First Name,Mobile Phone\nKai,555-555-0141\n');
    const journal = join(dir, 'night.journal');
    // A lock in 0.1's format left by a run that crashed ten minutes ago, whose PID now names
    // a process that started since.
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    const unrelated = spawn('sleep', ['30'], { stdio: 'ignore' });
    await new Promise((r) => unrelated.once('spawn', r));
    writeFileSync(`${journal}.lock`, String(unrelated.pid));
    utimesSync(`${journal}.lock`, tenMinutesAgo, tenMinutesAgo);
    try {
      const r = await msgctl(['send', '--csv', csv, '--template', 'Hi {first_name}', '--journal', journal, '--json'], {
        env: sandboxEnv(sandbox.current),
      });
      expect(r.stderr).not.toMatch(/Another msgctl/);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(jsonLines(r.stdout)).toMatchObject([{ row: 2, outcome: 'sent' }]);
    } finally {
      unrelated.kill();
    }
  });
});

describe.skipIf(!existsSync('/dev/full'))('send --csv whose stdout fails', () => {
  it('ends with exit 1 and output_failed, and removes its journal lock (the batch runs in a thread the failure ends)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-lock-e2e-'));
    const csv = join(dir, 'night.csv');
    // Rows enough that the first output line fails while later ones are still being sent.
    const rows = Array.from({ length: 40 }, (_, i) => `P${i},555-555-${String(2000 + i)}`);
    writeFileSync(csv, ['First Name,Mobile Phone', ...rows].join('\n') + '\n');
    const journal = join(dir, 'night.journal');
    const before = sandbox.current.testing.requests().length;
    // stdout is /dev/full itself (execa would put a pipe of its own in between).
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [binPath(), 'send', '--csv', csv, '--template', 'Hi {first_name}', '--journal', journal], {
      env: sandboxEnv(sandbox.current),
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [exitCode] = (await once(child, 'close')) as [number | null];
    expect(stderr).toMatch(/cannot write to standard output: .*ENOSPC/);
    expect(exitCode).toBe(1);
    expect(existsSync(`${journal}.lock`)).toBe(false);
    // The journal it wrote stays: a re-run finds the rows it sent, and nothing is sent twice.
    expect(readFileSync(journal, 'utf8')).toMatch(/"row":2/);
    const again = await msgctl(['send', '--csv', csv, '--template', 'Hi {first_name}', '--journal', journal, '--json'], { env: sandboxEnv(sandbox.current) });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(jsonLines(again.stdout).map((l) => l.outcome)).toEqual(rows.map(() => 'sent'));
    const posts = sandbox.current.testing.requests().slice(before).filter((q) => q.method === 'POST' && q.path === '/patient-messages');
    expect(new Set(posts.map((q) => q.idempotencyKey)).size).toBe(rows.length);
  });
});
