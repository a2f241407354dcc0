// Where a real command's start-up goes in loading dist/cli.cjs (issue 30, target 2): each stage
// of what bin/code-cache.js does, timed as its own Node process, paired per round against
// `node -e 0`:
//
//   read source      the bundle's text, as the bin reads it
//   + read cache     and the compiled code `org --json` kept (a real run of it fills the cache)
//   + deserialise    new vm.Script with that code (V8 rebuilds every function of the bundle it
//                    holds: with esbuild's scope hoisting every module's functions are at the
//                    bundle's top level, so the cache grows with the whole bundle, not the command)
//   + top level      running the bundle's top level, as every command does
//
// No target: what it prints says which part a smaller or split bundle would save.
// Usage: npm run build && node bench/bundle-load.mjs [--rounds 20]
// POSIX only, like the other benches.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, benchEnv, BIN, envDifferences, machine, median, result, ROOT, startSandbox } from './lib/common.mjs';

const ROUNDS = Number(arg('rounds', '20'));
const WARMUP = 2;
const bundle = join(ROOT, 'dist', 'cli.cjs');
const home = mkdtempSync(join(tmpdir(), 'msgctl-bench-bundle-load-'));
const env = benchEnv({ XDG_CACHE_HOME: join(home, 'cache'), XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') });
const sandbox = await startSandbox([], env);
try {
  const runEnv = { ...env, MSGCTL_BASE_URL: sandbox.info.base_url, MSGCTL_API_KEY: sandbox.info.api_key };
  // Two runs: the first compiles and keeps the code, the second reads it (as every later run does).
  for (let i = 0; i < 2; i++) spawnSync(process.execPath, [BIN, 'org', '--json'], { env: runEnv, stdio: 'ignore' });
  const codeDir = join(home, 'cache', 'msgctl', 'code');
  const kept = readdirSync(codeDir).find((name) => name.startsWith('cli.org.'));
  if (!kept) throw new Error(`org --json kept no compiled code in ${codeDir}`);
  const cacheFile = join(codeDir, kept);

  // The stages, each a script of its own that stops after its stage. The kept file starts with
  // the 32-byte secret bin/code-cache.js checks; V8's data follows it.
  const stage = join(home, 'stage.cjs');
  writeFileSync(
    stage,
    `const fs = require('node:fs'), vm = require('node:vm');
const upTo = process.argv[2];
const source = fs.readFileSync(${JSON.stringify(bundle)}, 'latin1');
const end = source.lastIndexOf('\\n})') + 3;
if (upTo === 'read') return;
const cachedData = fs.readFileSync(${JSON.stringify(cacheFile)}).subarray(32);
if (upTo === 'cache') return;
const script = new vm.Script(source.slice(0, end), { filename: ${JSON.stringify(bundle)}, cachedData });
if (script.cachedDataRejected) { console.error('the kept code was rejected'); process.exit(1); }
if (upTo === 'deserialise') return;
script.runInThisContext();
`,
  );
  const cases = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'read source', args: [stage, 'read'] },
    { name: '+ read cache', args: [stage, 'cache'] },
    { name: '+ deserialise', args: [stage, 'deserialise'] },
    { name: '+ top level', args: [stage, 'top'] },
  ].map((c) => ({ ...c, times: /** @type {number[]} */ ([]) }));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Rotating order, so no case always follows the same one.
    for (const c of [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)]) {
      const started = process.hrtime.bigint();
      const run = spawnSync(process.execPath, c.args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (run.status !== 0) throw new Error(`${c.name}: exit ${run.status}: ${run.stderr}`);
      if (round >= WARMUP) c.times.push(ms);
    }
  }
  console.log(`bundle load: ${ROUNDS} rotating rounds (after ${WARMUP} warm-up); ${machine()}`);
  console.log(envDifferences(env));
  console.log(`dist/cli.cjs ${Math.round(statSync(bundle).size / 1024)} KB; the code org --json keeps ${Math.round(statSync(cacheFile).size / 1024)} KB`);
  console.log('stage                 median   x node -e 0 (paired)   this stage (paired, ms)');
  const bare = cases[0]?.times ?? [];
  let before = bare;
  for (const c of cases) {
    const ratio = median(c.times.map((t, r) => t / (bare[r] ?? NaN)));
    const step = median(c.times.map((t, r) => t - (before[r] ?? NaN)));
    console.log(`${c.name.padEnd(20)} ${median(c.times).toFixed(1).padStart(6)}ms   ${ratio.toFixed(3).padStart(8)}x   ${c.times === bare ? '' : `${step >= 0 ? '+' : ''}${step.toFixed(1)}`}`);
    if (c.times !== bare) result('bundle-load', `${c.name} (x node -e 0)`, ratio, 'x');
    before = c.times;
  }
} finally {
  await sandbox.stop();
  rmSync(home, { recursive: true, force: true });
}
