// What every bench shares: statistics, a fresh sandbox, the environment the timed processes
// get (and the report of how it differs from the caller's), a real pipe read by a consumer,
// and the result lines bench/run-all.mjs collects (format in bench/README.md).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BIN = process.env.MSGCTL_BENCH_BIN ?? fileURLToPath(new URL('../../bin/msgctl.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** @param {number[]} xs */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return /** @type {number} */ (s.length % 2 ? s[mid] : ((/** @type {number} */ (s[mid - 1]) + /** @type {number} */ (s[mid])) / 2));
}

/**
 * A 95% interval of the median of `ratios`: the 2.5th and 97.5th percentiles of the medians
 * of 2,000 resamples (with replacement) of the rounds, drawn with a fixed seed so that the
 * same times always give the same interval.
 * @param {number[]} ratios @returns {[number, number]}
 */
export function medianInterval(ratios) {
  let seed = 0x2545f491;
  const random = () => {
    // xorshift32: enough to draw round numbers, and the same draws on every run.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const medians = [];
  for (let i = 0; i < 2000; i++) medians.push(median(ratios.map(() => /** @type {number} */ (ratios[Math.floor(random() * ratios.length)]))));
  medians.sort((a, b) => a - b);
  return [/** @type {number} */ (medians[Math.floor(0.025 * medians.length)]), /** @type {number} */ (medians[Math.ceil(0.975 * medians.length) - 1])];
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc/PID/stat: Linux only, and
 * throws elsewhere or once the process is gone. utime and stime are fields 14 and 15, counted
 * after the command name's last ')' (the name may hold one), in clock ticks of USER_HZ = 100.
 * @param {number | undefined} pid
 */
export function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** @param {number[]} xs */
export const min = (xs) => Math.min(...xs);

/**
 * The value after `--name` on the command line, or `fallback`.
 * @param {string} name
 * @param {string} fallback
 * @returns {string}
 */
export function arg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

/**
 * Variables that change what a Node process does at start or how msgctl talks, removed from
 * the environment of everything a bench times. NODE_EXTRA_CA_CERTS alone makes every Node
 * start read and parse a CA bundle (~60 ms on the development VM, which sets it for npm).
 * A bench that needs one (the HTTPS cases) sets its own, on both sides of a comparison.
 */
const STRIPPED = [
  'NODE_EXTRA_CA_CERTS',
  'NODE_OPTIONS',
  'NODE_COMPILE_CACHE',
  'NODE_DISABLE_COMPILE_CACHE',
  'NODE_V8_COVERAGE',
  'NODE_DEBUG',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

/** @typedef {Record<string, string | undefined>} Env */

/**
 * The caller's environment without STRIPPED and without any MSGCTL_ variable (no profile,
 * credential or base URL of the user's reaches a bench), plus `extra`.
 * @param {Env} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function benchEnv(extra = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || STRIPPED.includes(name) || name.startsWith('MSGCTL_')) continue;
    env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * One line saying how `env` differs from this process's environment: what was removed and
 * what was set (secrets and long values shortened), printed beside each table.
 * @param {NodeJS.ProcessEnv} env
 */
export function envDifferences(env) {
  const removed = Object.keys(process.env).filter((name) => env[name] === undefined).sort();
  const set = Object.keys(env)
    .filter((name) => env[name] !== process.env[name])
    .sort()
    .map((name) => `${name}=${/KEY|TOKEN|SECRET/.test(name) ? '…' : shorten(/** @type {string} */ (env[name]))}`);
  return `environment: removed ${removed.length ? removed.join(' ') : '(nothing)'}; set ${set.length ? set.join(' ') : '(nothing)'}`;
}

/** @param {string} value */
function shorten(value) {
  return value.length > 48 ? `…${value.slice(-40)}` : value;
}

/** The load average and Node version, for the line above every table. */
export const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export const machine = () => `Node ${process.version}, load ${load()}`;

/**
 * `msgctl sandbox` on a free port; resolves once it prints its JSON line.
 * @param {string[]} [extra] more `msgctl sandbox` arguments
 * @param {NodeJS.ProcessEnv} [env]
 */
export async function startSandbox(extra = [], env = benchEnv()) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', '--rate-limit', '0', ...extra], {
    stdio: ['ignore', 'pipe', 'ignore'], // its "Sandbox stopped." would break the tables
    env,
  });
  const [line] = await once(createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) }), 'line');
  /** @type {{ base_url: string, origin: string, api_key: string, organization_id: string }} */
  const info = JSON.parse(line);
  return {
    info,
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}

/**
 * A real pipe (a FIFO) with a consumer reading everything written to it, as `msgctl … | consumer`
 * would have. `open()` gives a write descriptor for a child's stdout or stderr. The consumer holds
 * the FIFO open for reading and writing (`<>`), so it never sees the end between children.
 * POSIX only (mkfifo, sh, cat).
 */
export async function consumerPipe() {
  const dir = mkdtempSync(join(tmpdir(), 'msgctl-bench-pipe-'));
  const fifo = join(dir, 'pipe');
  const made = spawnSync('mkfifo', ['-m', '600', fifo]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  const consumer = spawn('sh', ['-c', 'exec cat <>"$0" >/dev/null', fifo], { stdio: 'ignore' });
  /** @type {number[]} */
  const opened = [];
  return {
    /** A new write descriptor on the pipe (closed by close()). */
    open() {
      const fd = openSync(fifo, 'w');
      opened.push(fd);
      return fd;
    },
    close() {
      for (const fd of opened.splice(0)) closeSync(fd);
      consumer.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One result line for bench/run-all.mjs: `RESULT {"bench","name","value","unit","target","pass"}`.
 * `target` is text ("<= 1.15x"); `pass` is true, false, or null for a figure without a target.
 * @param {string} bench
 * @param {string} name
 * @param {number} value
 * @param {string} unit
 * @param {string | null} [target]
 * @param {boolean | null} [pass]
 */
export function result(bench, name, value, unit, target = null, pass = null) {
  console.log(`RESULT ${JSON.stringify({ bench, name, value: Math.round(value * 1000) / 1000, unit, target, pass })}`);
}

/** @param {boolean | null} pass */
export const verdict = (pass) => (pass === null ? '' : pass ? 'PASS' : 'FAIL');
