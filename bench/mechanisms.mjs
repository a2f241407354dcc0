// Does each start-up mechanism pay its way? (issue 30, target 6.) For each one, real commands
// run with it and without it in the same rounds (alternating, rotating order), and the gain is
// the median over the rounds of (time without / time with) - 1, per command. A mechanism passes
// when it gains at least 5% on some real command; one that does not should go.
//
//   code cache      the same build with NODE_DISABLE_COMPILE_CACHE=1 (bin/code-cache.js: both the
//                   bundle's kept code and Node's compile cache off)
//   direct output   a build made with `scripts/build.mjs --without direct-output` (Node's streams
//                   for stdout and stderr; output/direct-output.ts), into /dev/null and into a
//                   real pipe read by a consumer
//   prebuilt help   the same build asked in a form the bin's prebuilt lookup declines
//                   (`send -h --help`: commander prints the same text from the live tree)
//   lazy modules    a build made with `scripts/build.mjs --without lazy-modules` (every module
//                   of src/cli evaluated at start, with the packages they import at their top)
//
// Usage: npm run build && node bench/mechanisms.mjs [--rounds 15]
// POSIX only (a FIFO; the variant builds are symlinked next to node_modules).
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, benchEnv, BIN, consumerPipe, envDifferences, load, machine, median, result, ROOT, startSandbox, verdict } from './lib/common.mjs';

const ROUNDS = Number(arg('rounds', '15'));
const WARMUP = 2;
const GAIN_TARGET = 0.05;
const TO = '(212) 555-0100';
const TEXT = 'Your lab results are ready.';

const home = mkdtempSync(join(tmpdir(), 'msgctl-bench-mechanisms-'));
const baseEnv = benchEnv({ XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: join(home, 'cache'), NO_COLOR: '1' });

/**
 * This checkout's bin/ beside a build of the CLI without `mechanism`, in a folder of its own
 * that reaches the project's node_modules through a link.
 * @param {string} mechanism
 */
function buildWithout(mechanism) {
  const root = join(home, `without-${mechanism}`);
  cpSync(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--outdir', join(root, 'dist'), '--without', mechanism], { cwd: ROOT, encoding: 'utf8', env: benchEnv() });
  if (built.status !== 0) throw new Error(`build --without ${mechanism} failed: ${built.stderr}`);
  return join(root, 'bin', 'msgctl.js');
}

const withoutDirect = buildWithout('direct-output');
const withoutLazy = buildWithout('lazy-modules');
const sandbox = await startSandbox([], baseEnv);
const apiEnv = { ...baseEnv, MSGCTL_BASE_URL: sandbox.info.base_url, MSGCTL_API_KEY: sandbox.info.api_key };
const noCacheEnv = { ...apiEnv, NODE_DISABLE_COMPILE_CACHE: '1' };
const pipe = await consumerPipe();
const devNull = openSync('/dev/null', 'w');
const pipeFd = pipe.open();

/** @typedef {{ name: string, mechanism: string, with: string[], without: string[], withEnv: NodeJS.ProcessEnv, withoutEnv: NodeJS.ProcessEnv, out: 'null' | 'pipe' }} Pair */
/** @type {Pair[]} */
const pairs = [];
const org = ['org', '--json'];
const dryRun = ['send', '--dry-run', '--to', TO, TEXT];
const send = ['send', '--to', TO, TEXT];
for (const [name, args] of /** @type {const} */ ([['org --json', org], ['send --dry-run', dryRun], ['send', send]])) {
  pairs.push({ name, mechanism: 'code cache', with: [BIN, ...args], without: [BIN, ...args], withEnv: apiEnv, withoutEnv: noCacheEnv, out: 'null' });
  pairs.push({ name, mechanism: 'lazy modules', with: [BIN, ...args], without: [withoutLazy, ...args], withEnv: apiEnv, withoutEnv: apiEnv, out: 'null' });
}
for (const out of /** @type {const} */ (['null', 'pipe'])) {
  for (const [name, args] of /** @type {const} */ ([['org --json', org], ['send --dry-run', dryRun]])) {
    pairs.push({ name: `${name}${out === 'pipe' ? ' | pipe' : ''}`, mechanism: 'direct output', with: [BIN, ...args], without: [withoutDirect, ...args], withEnv: apiEnv, withoutEnv: apiEnv, out });
  }
}
pairs.push(
  { name: '--help', mechanism: 'prebuilt help', with: [BIN, '--help'], without: [BIN, '-h', '--help'], withEnv: baseEnv, withoutEnv: baseEnv, out: 'null' },
  { name: 'send --help', mechanism: 'prebuilt help', with: [BIN, 'send', '--help'], without: [BIN, 'send', '-h', '--help'], withEnv: baseEnv, withoutEnv: baseEnv, out: 'null' },
);

/** @type {{ pair: Pair, side: 'with' | 'without' }[]} */
const runs = pairs.flatMap((pair) => [{ pair, side: /** @type {const} */ ('with') }, { pair, side: /** @type {const} */ ('without') }]);
/** @type {Map<Pair, { with: number[], without: number[] }>} */
const times = new Map(pairs.map((p) => [p, { with: [], without: [] }]));
const loadBefore = load();
try {
  for (let round = 0; round < ROUNDS + WARMUP; round++) {
    for (let k = 0; k < runs.length; k++) {
      const { pair, side } = /** @type {(typeof runs)[number]} */ (runs[(k + round) % runs.length]);
      const fd = pair.out === 'pipe' ? pipeFd : devNull;
      const argv = side === 'with' ? pair.with : pair.without;
      const env = side === 'with' ? pair.withEnv : pair.withoutEnv;
      const t0 = performance.now();
      const r = spawnSync(process.execPath, argv, { env, stdio: ['ignore', fd, fd] });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${pair.mechanism} ${side}: ${pair.name} exited ${r.status}: ${spawnSync(process.execPath, argv, { env, encoding: 'utf8' }).stderr}`);
      if (round >= WARMUP) /** @type {{ with: number[], without: number[] }} */ (times.get(pair))[side].push(ms);
    }
  }
} finally {
  pipe.close();
  closeSync(devNull);
  await sandbox.stop();
  rmSync(home, { recursive: true, force: true });
}

console.log(`start-up mechanisms: ${ROUNDS} rounds (after ${WARMUP} warm-up), with and without each in the same rounds; ${machine()} (load ${loadBefore} at the start)`);
console.log(envDifferences(apiEnv));
console.log(`${'mechanism'.padEnd(15)} ${'command'.padEnd(22)} ${'with'.padStart(8)} ${'without'.padStart(8)}  gain (paired)`);
for (const mechanism of [...new Set(pairs.map((p) => p.mechanism))]) {
  let best = -Infinity;
  for (const pair of pairs.filter((p) => p.mechanism === mechanism)) {
    const t = /** @type {{ with: number[], without: number[] }} */ (times.get(pair));
    const gain = median(t.without.map((ms, round) => ms / /** @type {number} */ (t.with[round]))) - 1;
    best = Math.max(best, gain);
    console.log(`${mechanism.padEnd(15)} ${pair.name.padEnd(22)} ${median(t.with).toFixed(1).padStart(6)}ms ${median(t.without).toFixed(1).padStart(6)}ms  ${(gain * 100).toFixed(1).padStart(5)}%`);
    result('mechanisms', `${mechanism}: ${pair.name}, gain`, gain * 100, '%');
  }
  const pass = best >= GAIN_TARGET;
  console.log(`${mechanism}: best gain ${(best * 100).toFixed(1)}% (keep at >= ${GAIN_TARGET * 100}% on some real command) ${verdict(pass)}`);
  result('mechanisms', `${mechanism}: best gain on a real command`, best * 100, '%', `>= ${GAIN_TARGET * 100}%`, pass);
}
