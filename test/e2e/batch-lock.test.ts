/**
 * `send --csv` and a journal lock left behind by a crash, whose PID now
 * belongs to some other live process (PIDs are reused; Windows reuses them fast).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, msgctl, sandboxEnv } from '../helpers/cli.js';
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
