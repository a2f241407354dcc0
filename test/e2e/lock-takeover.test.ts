/**
 * docs/security.md, promise 8: taking over a stale lock is atomic. Many processes,
 * started together, find one lock whose PID is dead (a crashed run); exactly one may
 * be inside at a time. Before, each removed the lock by name and created its own, so
 * a late one removed the lock a faster one had just taken, and several were inside.
 * Real processes (the lock is between processes), running the CLI's own lock code
 * bundled by esbuild.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CONTENDERS = 12;
// Before the fix, 7 of 8 rounds let two or more in at once: two rounds of twelve still catch it.
const ROUNDS = 2;
const dir = mkdtempSync(join(tmpdir(), 'msgctl-takeover-'));
const driver = join(dir, 'driver.mjs');

// Says it is ready, waits for a line on stdin (the test writes one to every contender at once, so
// all contend at the same moment; waiting on a pipe costs no CPU, where polling a file every
// millisecond in twelve processes took more of two cores than the contention itself), takes the
// lock, notes when it is inside, holds it a little, notes leaving. `config`: the config/credentials/OAuth lock, which
// waits its turn; `journal`: a batch journal's lock, which refuses while held.
const DRIVER = `
import { withFileLock } from ${JSON.stringify(resolve('src/cli/config/file-lock.ts'))};
import { lockJournal } from ${JSON.stringify(resolve('src/cli/batch/lock.ts'))};
import { appendFileSync } from 'node:fs';
const [kind, target, log] = process.argv.slice(2);
const go = new Promise((resolve) => process.stdin.once('data', resolve));
appendFileSync(log + '.ready', 'ready\\n');
await go;
process.stdin.destroy();
const inside = async () => {
  appendFileSync(log, 'in\\n');
  await new Promise((r) => setTimeout(r, 30));
  appendFileSync(log, 'out\\n');
};
if (kind === 'config') await withFileLock(target, inside);
else {
  try {
    const release = await lockJournal(target);
    await inside();
    await release();
  } catch (err) {
    if (!/Another msgctl/.test(err.message)) throw err;
    appendFileSync(log, 'refused\\n');
  }
}
`;

beforeAll(async () => {
  await build({ stdin: { contents: DRIVER, resolveDir: resolve('.'), loader: 'ts' }, bundle: true, platform: 'node', target: 'node22', format: 'esm', outfile: driver, logLevel: 'error' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PID that was running a moment ago and is not any more. */
async function deadPid(): Promise<number> {
  const child = execa('true'); // any short process: no Node start-up needed
  const pid = child.pid!;
  await child;
  return pid;
}

async function contend(kind: 'config' | 'journal', round: number): Promise<string[]> {
  const target = join(dir, `${kind}-${round}`);
  const lock = kind === 'config' ? target : `${target}.lock`;
  writeFileSync(lock, String(await deadPid()), { mode: 0o600 });
  const log = join(dir, `${kind}-${round}.log`);
  writeFileSync(log, '');
  const runs = Array.from({ length: CONTENDERS }, () => execa(process.execPath, [driver, kind, target, log], { reject: false, stdin: 'pipe' }));
  // Every contender started and waiting for the signal to go.
  const ready = () => (existsSync(`${log}.ready`) ? readFileSync(`${log}.ready`, 'utf8').split('\n').filter(Boolean).length : 0);
  while (ready() < CONTENDERS) await new Promise((r) => setTimeout(r, 20));
  for (const run of runs) run.stdin!.write('go\n');
  const results = await Promise.all(runs);
  for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
  expect(existsSync(lock)).toBe(false);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** Never two inside at once: every `in` is followed by its `out` before the next `in`. */
function oneAtATime(events: string[]): boolean {
  let inside = 0;
  for (const e of events) {
    if (e === 'in') inside++;
    if (e === 'out') inside--;
    if (inside > 1) return false;
  }
  return inside === 0;
}

describe.skipIf(process.platform === 'win32')('taking over a stale lock (dead PID) with many contenders', () => {
  it(`config/credentials lock: one inside at a time, all ${CONTENDERS} in turn, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const events = await contend('config', round);
      expect(oneAtATime(events), events.join(' ')).toBe(true);
      expect(events.filter((e) => e === 'in')).toHaveLength(CONTENDERS);
    }
  }, 120_000);

  it(`journal lock: one inside at a time, the others refused while it is held, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const events = await contend('journal', round);
      expect(oneAtATime(events), events.join(' ')).toBe(true);
      expect(events.filter((e) => e === 'in').length).toBeGreaterThanOrEqual(1);
      expect(events.filter((e) => e !== 'out')).toHaveLength(CONTENDERS);
    }
  }, 120_000);
});
