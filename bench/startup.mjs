// Start-up of real commands against the floors they cannot beat, measured in the same rounds:
// `node -e 0`, and one-file node:http / node:https scripts doing the same request
// (bench/lib/bare-request.cjs). Every case runs once per round, spawn to exit, in an order that
// rotates every round (so a burst of load on a shared machine hits them alike). A verdict is
// the median over the rounds of each round's ratio to its floor (paired), never a ratio of
// medians.
//
// Each case writes its stdout and stderr to /dev/null or, marked `| pipe`, into a real pipe (a
// FIFO) that a consumer reads, as `msgctl … | jq` has; the floor of a pipe case writes into the
// same pipe. The HTTPS cases go through a local TLS terminator with a private CA made at bench
// time (NODE_EXTRA_CA_CERTS naming it, for msgctl and the bare script alike). With --keychain
// (run under scripts/with-keyring.sh, as run-all does when it can) the API key is also stored
// in the keychain of a throwaway profile, and `org --json` reading it is compared with
// `org --json` reading MSGCTL_API_KEY.
//
// Targets (issue 30): every help and `send --dry-run` <= 1.3x `node -e 0`; `org --json` and
// `patients list --limit 1 --json` <= 1.15x a bare GET of the same endpoint; `send` <= 1.15x a
// bare POST; the same over HTTPS; the keychain path <= 1.15x the environment path.
//
// Usage: npm run build && node bench/startup.mjs [--rounds 20] [--keychain] [--only WORD,WORD]
// POSIX only (a FIFO, openssl).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, benchEnv, BIN, consumerPipe, envDifferences, load, machine, median, result, startSandbox, verdict } from './lib/common.mjs';
import { startTlsTerminator } from './lib/private-ca.mjs';

const ROUNDS = Number(arg('rounds', '20'));
const WARMUP = 2;
const ONLY = arg('only', '').split(',').filter(Boolean);
const BARE = fileURLToPath(new URL('./lib/bare-request.cjs', import.meta.url));
const TO = '(212) 555-0100';
const TEXT = 'Your lab results are ready.';
const SEND_BODY = JSON.stringify({ to: { phone: '+12125550100' }, body: TEXT });

const home = mkdtempSync(join(tmpdir(), 'msgctl-bench-startup-'));
// A private config/state/cache home: no profile of the user's is read; the caches warm up in the warm-up rounds.
const baseEnv = benchEnv({ XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: join(home, 'cache'), NO_COLOR: '1' });
const sandbox = await startSandbox([], baseEnv);
const tls = await startTlsTerminator(Number(new URL(sandbox.info.origin).port), baseEnv);
const apiKey = sandbox.info.api_key;
const httpEnv = { ...baseEnv, MSGCTL_BASE_URL: sandbox.info.base_url, MSGCTL_API_KEY: apiKey };
const httpsBase = sandbox.info.base_url.replace(sandbox.info.origin, tls.origin);
// A code cache of its own, as the keychain case below has: the code cache is kept per command line,
// and an HTTPS user runs on code their own HTTPS runs left, not code a plain-HTTP run compiled.
const httpsEnv = { ...baseEnv, NODE_EXTRA_CA_CERTS: tls.ca, MSGCTL_BASE_URL: httpsBase, MSGCTL_API_KEY: apiKey, XDG_CACHE_HOME: join(home, 'cache-https') };
const pipe = await consumerPipe();
const devNull = openSync('/dev/null', 'w');
const pipeFd = pipe.open();

/**
 * @typedef {object} Case
 * @property {string} name
 * @property {string[]} argv node's arguments
 * @property {NodeJS.ProcessEnv} env
 * @property {'null' | 'pipe'} out
 * @property {string} [floor] the case each round's time is divided by
 * @property {number} [target] the highest paired ratio that passes
 */

/** @param {string} base @param {string} path @param {string} [body] @returns {NodeJS.ProcessEnv} */
const bareEnv = (base, path, body) => ({ ...baseEnv, BENCH_URL: `${base}${path}`, BENCH_KEY: apiKey, ...(body === undefined ? {} : { BENCH_BODY: body }) });
/** @param {string[]} args */
const msgctl = (...args) => [BIN, ...args];

/** @type {Case[]} */
const cases = [];
for (const out of /** @type {const} */ (['null', 'pipe'])) {
  const tag = out === 'pipe' ? ' | pipe' : '';
  const node0 = `node -e 0${tag}`;
  const get = `bare GET /organization${tag}`;
  const post = `bare POST /patient-messages${tag}`;
  cases.push(
    { name: node0, argv: ['-e', '0'], env: baseEnv, out },
    { name: get, argv: [BARE], env: bareEnv(sandbox.info.base_url, '/organization'), out },
    { name: post, argv: [BARE], env: bareEnv(sandbox.info.base_url, '/patient-messages', SEND_BODY), out },
    { name: `msgctl --help${tag}`, argv: msgctl('--help'), env: baseEnv, out, floor: node0, target: 1.3 },
    { name: `org --json${tag}`, argv: msgctl('org', '--json'), env: httpEnv, out, floor: get, target: 1.15 },
    { name: `send --dry-run${tag}`, argv: msgctl('send', '--dry-run', '--to', TO, TEXT), env: httpEnv, out, floor: node0, target: 1.3 },
    { name: `send${tag}`, argv: msgctl('send', '--to', TO, TEXT), env: httpEnv, out, floor: post, target: 1.15 },
  );
}
cases.push(
  { name: 'msgctl --version', argv: msgctl('--version'), env: baseEnv, out: 'null', floor: 'node -e 0', target: 1.3 },
  { name: 'send --help', argv: msgctl('send', '--help'), env: baseEnv, out: 'null', floor: 'node -e 0', target: 1.3 },
  { name: 'patients list --help', argv: msgctl('patients', 'list', '--help'), env: baseEnv, out: 'null', floor: 'node -e 0', target: 1.3 },
  { name: 'bare GET /patients?page[limit]=1', argv: [BARE], env: bareEnv(sandbox.info.base_url, '/patients?page%5Blimit%5D=1'), out: 'null' },
  { name: 'patients list --limit 1 --json', argv: msgctl('patients', 'list', '--limit', '1', '--json'), env: httpEnv, out: 'null', floor: 'bare GET /patients?page[limit]=1', target: 1.15 },
  { name: 'bare https GET /organization', argv: [BARE], env: { ...bareEnv(httpsBase, '/organization'), NODE_EXTRA_CA_CERTS: tls.ca }, out: 'null' },
  { name: 'bare https POST /patient-messages', argv: [BARE], env: { ...bareEnv(httpsBase, '/patient-messages', SEND_BODY), NODE_EXTRA_CA_CERTS: tls.ca }, out: 'null' },
  { name: 'https: org --json', argv: msgctl('org', '--json'), env: httpsEnv, out: 'null', floor: 'bare https GET /organization', target: 1.15 },
  { name: 'https: send', argv: msgctl('send', '--to', TO, TEXT), env: httpsEnv, out: 'null', floor: 'bare https POST /patient-messages', target: 1.15 },
);

/** The keychain case's environment, once its key is stored (removed again at the end). */
/** @type {NodeJS.ProcessEnv | undefined} */
let keychainEnv;
if (process.argv.includes('--keychain')) {
  // Stored for the default profile of the private config home; `org --json` then finds it there,
  // under a keychain service name of the bench's own (never the user's entries, should this run
  // outside scripts/with-keyring.sh). A cache folder of its own: the code cache is kept per
  // command line, and a user whose key is in the keychain runs on code their own keychain runs
  // left, not code an env-key run compiled.
  keychainEnv = { ...baseEnv, MSGCTL_BASE_URL: sandbox.info.base_url, XDG_CACHE_HOME: join(home, 'cache-keychain'), MSGCTL_KEYCHAIN_SERVICE: `msgctl-bench-${process.pid}` };
  const stored = spawnSync(process.execPath, [BIN, 'auth', 'set-key', '--name', 'bench'], { env: keychainEnv, input: apiKey, encoding: 'utf8' });
  if (stored.status !== 0) throw new Error(`auth set-key failed: ${stored.stderr}`);
  if (!/keychain|keyring|secret service/i.test(stored.stdout + stored.stderr)) console.log(`note: auth set-key said: ${(stored.stdout + stored.stderr).trim()}`);
  cases.push({ name: 'keychain: org --json', argv: msgctl('org', '--json'), env: keychainEnv, out: 'null', floor: 'org --json', target: 1.15 });
} else {
  // The target is still printed, unmeasured, so a run without a Secret Service cannot look complete.
  console.log('keychain: org --json not measured (run under scripts/with-keyring.sh with --keychain; run-all does when it can)');
  result('startup', 'keychain: org --json, paired x org --json (not measured: no Secret Service)', NaN, 'x', '<= 1.15x', null);
}

// --only: the cases whose names hold one of the words, with their floors and `node -e 0`.
const picked = cases.filter((c) => ONLY.length === 0 || ONLY.some((word) => c.name.includes(word)));
const chosen = cases.filter((c) => picked.includes(c) || c.name === 'node -e 0' || picked.some((p) => p.floor === c.name));
/** @type {Map<string, number[]>} */
const samples = new Map(chosen.map((c) => [c.name, []]));
const loadBefore = load();
try {
  for (let round = 0; round < ROUNDS + WARMUP; round++) {
    for (let k = 0; k < chosen.length; k++) {
      const c = /** @type {Case} */ (chosen[(k + round) % chosen.length]);
      const fd = c.out === 'pipe' ? pipeFd : devNull;
      const t0 = performance.now();
      const r = spawnSync(process.execPath, c.argv, { env: c.env, stdio: ['ignore', fd, fd] });
      const ms = performance.now() - t0;
      if (r.status !== 0) {
        const again = spawnSync(process.execPath, c.argv, { env: c.env, encoding: 'utf8' });
        throw new Error(`${c.name} exited ${r.status}: ${again.stderr}`);
      }
      if (round >= WARMUP) /** @type {number[]} */ (samples.get(c.name)).push(ms);
    }
  }
} finally {
  if (keychainEnv) spawnSync(process.execPath, [BIN, 'logout'], { env: keychainEnv, stdio: 'ignore' });
  pipe.close();
  closeSync(devNull);
  await tls.stop();
  await sandbox.stop();
  rmSync(home, { recursive: true, force: true });
}

const node0 = samples.get('node -e 0');
console.log(`start-up: ${ROUNDS} interleaved rounds (after ${WARMUP} warm-up); ${machine()} (load ${loadBefore} at the start)`);
console.log(envDifferences(httpEnv));
console.log(`https cases: as above, and NODE_EXTRA_CA_CERTS=<the bench's private CA> for msgctl and the bare script alike`);
console.log(`${'case'.padEnd(40)} ${'median'.padStart(8)} ${'x node -e 0'.padStart(11)}   paired x floor (floor)`);
for (const c of chosen) {
  const times = /** @type {number[]} */ (samples.get(c.name));
  const vsNode = node0 ? median(times.map((ms, round) => ms / /** @type {number} */ (node0[round]))) : NaN;
  const floor = c.floor === undefined ? undefined : samples.get(c.floor);
  let detail = '';
  if (c.floor !== undefined && floor) {
    const paired = median(times.map((ms, round) => ms / /** @type {number} */ (floor[round])));
    const pass = c.target === undefined ? null : paired <= c.target;
    detail = `${paired.toFixed(3).padStart(6)}x (${c.floor})${c.target === undefined ? '' : `  target <= ${c.target}x ${verdict(pass)}`}`;
    result('startup', `${c.name}, paired x ${c.floor}`, paired, 'x', c.target === undefined ? null : `<= ${c.target}x`, pass);
  } else if (c.name !== 'node -e 0') {
    result('startup', `${c.name}, paired x node -e 0`, vsNode, 'x');
  }
  console.log(`${c.name.padEnd(40)} ${median(times).toFixed(1).padStart(6)}ms ${vsNode.toFixed(3).padStart(10)}x   ${detail}`);
}
