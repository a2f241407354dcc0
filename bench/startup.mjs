// Start-up of real commands against bare Node: every command below runs once
// per round, in an order that rotates every round (so a burst of load on a
// shared machine hits them alike), spawn to exit. Reported per command: median
// and min wall time, the ratio of medians to `node -e 0` (the target), and the
// median of the per-round ratios (each run against the bare run of its own round).
//
// Credentials come from MSGCTL_API_KEY; with --keychain (run it under
// scripts/with-keyring.sh) the API key is also stored in the keychain of a
// throwaway profile and `org --json` is timed reading it from there.
//
// Usage: npm run build && node bench/startup.mjs [--rounds 15] [--keychain]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, BIN, load, median, min, result, startSandbox, verdict } from './lib/common.mjs';

const ROUNDS = Number(arg('rounds', 15));
const WARMUP = 2;
const sandbox = await startSandbox();
const { base_url: baseUrl, api_key: apiKey } = sandbox.info;
const home = mkdtempSync(join(tmpdir(), 'msgctl-bench-startup-'));
// A private config/cache home: no profile of the user's is read; the compile cache is warmed by the warm-up rounds.
const baseEnv = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: join(home, 'cache') };
delete baseEnv.MSGCTL_TOKEN;
delete baseEnv.NODE_COMPILE_CACHE;
const apiEnv = { ...baseEnv, MSGCTL_BASE_URL: baseUrl, MSGCTL_API_KEY: apiKey };

// What a bare script pays for one GET with node:http: the floor for any HTTP CLI.
const bareHttp = `require('node:http').get(process.env.MSGCTL_BASE_URL + '/organization', { headers: { authorization: 'Bearer ' + process.env.MSGCTL_API_KEY } }, (r) => r.resume().on('end', () => {}))`;

const cases = [
  { name: 'node -e 0', argv: ['-e', '0'], env: baseEnv },
  { name: 'msgctl --version', argv: [BIN, '--version'], env: baseEnv, target: 1.3 },
  { name: 'msgctl --help', argv: [BIN, '--help'], env: baseEnv, target: 1.3 },
  { name: 'send --help', argv: [BIN, 'send', '--help'], env: baseEnv, target: 1.3 },
  { name: 'patients list --help', argv: [BIN, 'patients', 'list', '--help'], env: baseEnv, target: 1.3 },
  { name: 'org --json', argv: [BIN, 'org', '--json'], env: apiEnv, target: 1.5 },
  { name: 'patients list --limit 1 --json', argv: [BIN, 'patients', 'list', '--limit', '1', '--json'], env: apiEnv, target: 1.5 },
  { name: 'send --dry-run', argv: [BIN, 'send', '--dry-run', '--to', '(212) 555-0100', 'Your lab results are ready.'], env: apiEnv, target: 1.4 },
  { name: 'send (one message)', argv: [BIN, 'send', '--to', '(212) 555-0100', 'Your lab results are ready.'], env: apiEnv, target: 1.6 },
  { name: 'bare node:http GET', argv: ['-e', bareHttp], env: apiEnv },
];

if (process.argv.includes('--keychain')) {
  const profileEnv = { ...baseEnv, MSGCTL_BASE_URL: baseUrl };
  const stored = spawnSync(process.execPath, [BIN, 'auth', 'set-key', '--name', 'bench'], { env: profileEnv, input: apiKey, encoding: 'utf8' });
  if (stored.status !== 0) throw new Error(`auth set-key failed: ${stored.stderr}`);
  if (!/keychain|keyring|secret service/i.test(stored.stdout + stored.stderr)) console.log(`note: auth set-key said: ${(stored.stdout + stored.stderr).trim()}`);
  cases.push({ name: 'org --json (keychain)', argv: [BIN, 'org', '--json'], env: profileEnv, target: null });
}

const samples = cases.map(() => []);
for (let round = 0; round < ROUNDS + WARMUP; round++) {
  for (let k = 0; k < cases.length; k++) {
    const i = (k + round) % cases.length;
    const c = cases[i];
    const t0 = performance.now();
    const r = spawnSync(process.execPath, c.argv, { env: c.env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
    if (round >= WARMUP) samples[i].push(ms);
  }
}
await sandbox.stop();
rmSync(home, { recursive: true, force: true });

const bare = samples[0];
const bareMedian = median(bare);
console.log(`start-up, ${ROUNDS} interleaved rounds (after ${WARMUP} warm-up), Node ${process.version}, load ${load()}`);
console.log('command                          median     min   ratio  paired  target');
for (let i = 0; i < cases.length; i++) {
  const c = cases[i];
  const m = median(samples[i]);
  const ratio = m / bareMedian;
  const paired = median(samples[i].map((ms, round) => ms / bare[round]));
  const pass = c.target ? ratio <= c.target : null;
  console.log(
    `${c.name.padEnd(31)} ${m.toFixed(1).padStart(7)} ${min(samples[i]).toFixed(1).padStart(7)}  ${ratio.toFixed(2).padStart(5)}x ${paired.toFixed(2).padStart(6)}x  ${c.target ? `<= ${c.target}x ${verdict(pass)}` : ''}`,
  );
  if (i > 0) result('startup', c.name, ratio, 'x node -e 0', c.target ? `<= ${c.target}x` : null, pass);
}
