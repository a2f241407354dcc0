/**
 * The "a re-run creates no duplicate patients" guarantee: chunk uploads carry
 * keys derived from the file, so an answer lost in transit, or a whole
 * command killed halfway, is followed by replays rather than second imports.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/start.js';
import { importTable } from '../../src/sandbox/domain/imports.js';
import { binPath, jsonLines, msgctl, sandboxEnv } from '../helpers/cli.js';

const messy = fileURLToPath(new URL('../fixtures/csv/roster-messy.csv', import.meta.url));

let sandbox: RunningSandbox;
afterEach(async () => sandbox?.close());

const patientCount = () => sandbox.sb.db.patients.filter((p) => p.orgId === sandbox.credentials.organization_id).length;
const importCount = () => importTable(sandbox.sb.store).size;
const outcomesOf = (stdout: string) => jsonLines(stdout).map((o) => [o.row, o.outcome]);

const EXPECTED = [
  [2, 'created'], [3, 'created'], [5, 'created'], [6, 'created'], [7, 'invalid'], [8, 'invalid'], [9, 'invalid'],
  [11, 'created'], [12, 'invalid'], [13, 'created'], [14, 'invalid'], [15, 'created'], [16, 'invalid'],
];

describe('re-running an import', () => {
  it('an upload whose answer was lost is retried with the same key and imported once', async () => {
    sandbox = await startSandbox({ rateLimit: 0, timeScale: 0 });
    sandbox.testing.recordRequests();
    const before = patientCount();
    sandbox.testing.injectFaults({ reset: true, method: 'POST', path: '/patient-imports' });
    const r = await msgctl(['imports', 'create', messy, '--month-first', '--wait', '--json'], { env: sandboxEnv(sandbox) });
    expect(r.exitCode).toBe(10);
    expect(outcomesOf(r.stdout)).toEqual(EXPECTED);
    const posts = sandbox.testing.requests().filter((q) => q.method === 'POST');
    expect(posts.map((q) => q.fault)).toEqual(['reset', null]);
    expect(importCount()).toBe(1);
    expect(patientCount()).toBe(before + 7);
  });

  it('after the command is killed halfway, running it again finishes the file without duplicates', async () => {
    // 100 ms per row: the first three-row chunk is still running when the CLI is killed.
    sandbox = await startSandbox({ rateLimit: 0, timeScale: 10 });
    sandbox.testing.recordRequests();
    const before = patientCount();
    const args = ['imports', 'create', messy, '--month-first', '--wait', '--json', '--chunk-size', '3'];
    const first = execa(process.execPath, [binPath(), ...args], { env: sandboxEnv(sandbox), extendEnv: false, reject: false });
    for (let waited = 0; importCount() === 0; waited += 20) {
      if (waited > 20_000) throw new Error('the first chunk never arrived');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.kill('SIGKILL');
    const killed = await first;
    expect(killed.signal).toBe('SIGKILL');
    expect(importCount()).toBe(1);

    const again = await msgctl(args, { env: sandboxEnv(sandbox), timeout: 60_000 });
    expect(again.exitCode).toBe(10);
    expect(outcomesOf(again.stdout)).toEqual(EXPECTED);
    expect(again.stderr).toMatch(/rows 2–5 were already sent by an earlier run as imp_\w+; not sending them again/);
    expect(again.stderr).toContain('4 imports, 1 replayed from an earlier run');
    // Chunks: rows 2–5, 6–8, 9–12, 13–15 are sent; row 16 alone is invalid. The first is not sent twice.
    expect(importCount()).toBe(4);
    expect(patientCount()).toBe(before + 7);

    // And a third run, once everything went through, changes nothing.
    const third = await msgctl(args, { env: sandboxEnv(sandbox), timeout: 60_000 });
    expect(outcomesOf(third.stdout)).toEqual(EXPECTED);
    expect(importCount()).toBe(4);
    expect(patientCount()).toBe(before + 7);
  }, 90_000);
});
