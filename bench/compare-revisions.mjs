// Does a change slow real commands? Two git revisions of msgctl, each built by its own
// scripts/build.mjs in a worktree of its own (sharing this checkout's node_modules through a
// link), run the same commands in the same rounds (alternating, rotating order) against one
// sandbox; the cost is the median over the rounds of (time at NEW / time at OLD) - 1.
// Each revision keeps its own warm code cache, as an installed msgctl would.
//
// Usage: npm run build && node bench/compare-revisions.mjs OLD NEW [--rounds 20] [--limit 2] [--keychain]
//   e.g. the merge of issue 27 against main just before it:
//        node bench/compare-revisions.mjs a7fbb33^1 a7fbb33
// Not part of `npm run bench` (it needs two revisions). Beside each cost, a 95% interval
// (the rounds resampled, 2,000 times, with a fixed seed): on a shared 2-core machine one run's
// cost of a command moves by a point or two, so a verdict on the worst of five would often be
// noise. PASS when every command's interval ends at or below --limit percent, FAIL when one
// starts above it, and otherwise UNDECIDED (more rounds, or a quieter machine, will tell).
// With --keychain (under scripts/with-keyring.sh), `org --json` also runs with the key in the
// OS keychain of a throwaway profile, stored once by NEW's `auth set-key`, which both read,
// under a keychain service name of the bench's own (MSGCTL_KEYCHAIN_SERVICE), removed at the end.
// POSIX only (git worktrees with a symlinked node_modules).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, benchEnv, envDifferences, load, machine, median, medianInterval, startSandbox } from './lib/common.mjs';
import { buildRevision, removeRevision } from './lib/revisions.mjs';

/** Options that take a value (the word after them is not a revision); --keychain takes none. */
const VALUED = new Set(['--rounds', '--limit']);
const [oldRev, newRev] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !VALUED.has(all[i - 1] ?? ''));
if (!oldRev || !newRev) {
  console.error('usage: node bench/compare-revisions.mjs OLD NEW [--rounds 20] [--limit 2] [--keychain]');
  process.exit(2);
}
const ROUNDS = Number(arg('rounds', '20'));
const LIMIT = Number(arg('limit', '2'));
const WARMUP = 2;

const home = mkdtempSync(join(tmpdir(), 'msgctl-bench-revisions-'));

const revisions = { old: buildRevision(oldRev, join(home, 'old')), new: buildRevision(newRev, join(home, 'new')) };
const KEYCHAIN = process.argv.includes('--keychain');
const baseEnv = benchEnv({
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_STATE_HOME: join(home, 'state'),
  NO_COLOR: '1',
  // Never the user's own entries, should this run outside scripts/with-keyring.sh.
  ...(KEYCHAIN ? { MSGCTL_KEYCHAIN_SERVICE: `msgctl-bench-${process.pid}` } : {}),
});
const sandbox = await startSandbox([], baseEnv);
const apiEnv = { ...baseEnv, MSGCTL_BASE_URL: sandbox.info.base_url, MSGCTL_API_KEY: sandbox.info.api_key };
/** @type {Record<'old' | 'new', NodeJS.ProcessEnv>} */
const envs = { old: { ...apiEnv, XDG_CACHE_HOME: join(home, 'cache-old') }, new: { ...apiEnv, XDG_CACHE_HOME: join(home, 'cache-new') } };
const KEYCHAIN_PROFILE = 'bench-keychain';
const commands = [
  ['org', '--json'],
  ...(KEYCHAIN ? [['--profile', KEYCHAIN_PROFILE, 'org', '--json']] : []),
  ['patients', 'list', '--limit', '1', '--json'],
  ['send', '--to', '(212) 555-0100', 'Your lab results are ready.'],
  ['send', '--dry-run', '--to', '(212) 555-0100', 'Your lab results are ready.'],
  ['send', '--help'],
];
/** @type {Record<'old' | 'new', NodeJS.ProcessEnv>} The keychain profile's: no MSGCTL_API_KEY, the key is the keychain's. */
const keychainEnvs = { old: { ...baseEnv, XDG_CACHE_HOME: envs.old.XDG_CACHE_HOME }, new: { ...baseEnv, XDG_CACHE_HOME: envs.new.XDG_CACHE_HOME } };
/** NEW's msgctl with the keychain profile. */
const keychainCommand = (/** @type {string[]} */ args, /** @type {string} */ input = '') =>
  spawnSync(process.execPath, [revisions.new.bin, '--profile', KEYCHAIN_PROFILE, ...args], { env: keychainEnvs.new, input, encoding: 'utf8' });
if (KEYCHAIN) {
  const stored = keychainCommand(['--base-url', sandbox.info.base_url, 'auth', 'set-key'], sandbox.info.api_key);
  if (stored.status !== 0 || !/ in OS keychain /.test(stored.stdout + stored.stderr)) throw new Error(`auth set-key did not store the key in the keychain: ${stored.stdout}${stored.stderr}`);
}
const envFor = (/** @type {string[]} */ args, /** @type {'old' | 'new'} */ side) => (args[1] === KEYCHAIN_PROFILE ? keychainEnvs : envs)[side];
/** @type {{ args: string[], side: 'old' | 'new' }[]} */
const runs = commands.flatMap((args) => [{ args, side: /** @type {const} */ ('old') }, { args, side: /** @type {const} */ ('new') }]);
/** @type {Map<string[], { old: number[], new: number[] }>} */
const times = new Map(commands.map((c) => [c, { old: [], new: [] }]));
const devNull = openSync('/dev/null', 'w');
const loadBefore = load();
try {
  for (let round = 0; round < ROUNDS + WARMUP; round++) {
    for (let k = 0; k < runs.length; k++) {
      const { args, side } = /** @type {(typeof runs)[number]} */ (runs[(k + round) % runs.length]);
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [revisions[side].bin, ...args], { env: envFor(args, side), stdio: ['ignore', devNull, devNull] });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${side}: ${args.join(' ')} exited ${r.status}`);
      if (round >= WARMUP) /** @type {{ old: number[], new: number[] }} */ (times.get(args))[side].push(ms);
    }
  }
} finally {
  closeSync(devNull);
  if (KEYCHAIN) keychainCommand(['logout']);
  await sandbox.stop();
  for (const { root } of Object.values(revisions)) removeRevision(root);
  rmSync(home, { recursive: true, force: true });
}

console.log(`${revisions.old.commit} (${oldRev}) against ${revisions.new.commit} (${newRev}): ${ROUNDS} rounds (after ${WARMUP} warm-up); ${machine()} (load ${loadBefore} at the start)`);
console.log(envDifferences(apiEnv));
console.log(`${'command'.padEnd(40)} ${'old'.padStart(8)} ${'new'.padStart(8)}  cost (paired)  95% interval`);
const percent = (/** @type {number} */ x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
let worst = -Infinity;
let highestEnd = -Infinity;
let highestStart = -Infinity;
for (const args of commands) {
  const t = /** @type {{ old: number[], new: number[] }} */ (times.get(args));
  const ratios = t.new.map((ms, round) => ms / /** @type {number} */ (t.old[round]));
  const cost = (median(ratios) - 1) * 100;
  const [low, high] = medianInterval(ratios).map((r) => (r - 1) * 100);
  worst = Math.max(worst, cost);
  highestEnd = Math.max(highestEnd, /** @type {number} */ (high));
  highestStart = Math.max(highestStart, /** @type {number} */ (low));
  const name = args.join(' ').replace(/ '?Your lab.*$/, ' …').replace(/\(212\) 555-0100/, 'NUMBER').replace(`--profile ${KEYCHAIN_PROFILE} `, 'keychain: ');
  console.log(`${name.padEnd(40)} ${median(t.old).toFixed(1).padStart(6)}ms ${median(t.new).toFixed(1).padStart(6)}ms  ${percent(cost).padStart(13)}  ${percent(/** @type {number} */ (low))} to ${percent(/** @type {number} */ (high))}`);
}
const decided = highestEnd <= LIMIT ? 'PASS' : highestStart > LIMIT ? 'FAIL' : 'UNDECIDED (the limit is inside an interval: run more rounds)';
console.log(`worst: ${percent(worst)} (limit +${LIMIT}%); ${decided}`);
