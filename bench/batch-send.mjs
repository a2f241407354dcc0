// `msgctl send --csv` throughput against its ceiling, and its peak memory.
//
// Throughput: ROUNDS pairs, each pair the CLI and a bare loop, in alternating
// order (CLI first in odd pairs, loop first in even ones), each measurement on a
// fresh sandbox (--rate-limit 0), so both create the same patients from scratch.
//   msgctl   the built CLI, spawn to exit: start-up, validation pass, journal,
//            one JSON line per row on stdout (to /dev/null).
//   loop     a bare script in its own Node process, spawn to exit: the same POST
//            bodies, CONCURRENCY workers, a fresh Idempotency-Key each, keep-alive
//            (node:http Agent, as the CLI uses); it reads each answer and nothing else.
// The CLI's stdout (one JSON line per row) goes into a real pipe read by a consumer, as
// `send --csv … --json | jq` has it. Reported: each pair's ratio (loop seconds / CLI seconds =
// CLI throughput as a share of the loop's) and their median, target >= 90%; the CPU time per row
// of each side (user + system, /usr/bin/time -v) and their paired ratio, target <= 1.5x; and the
// sandbox's own CPU per message beside each (/proc, Linux), which competes with both on 2 cores.
//
// Memory (--memory-rows 1000,100000, the range; a 100k run takes ~2 min): the
// CLI's peak RSS per file size (maxRSS at exit), the median of --memory-repeat runs
// (default 3, each on a fresh sandbox, the sizes taking turns). One run is not enough:
// the same 1,000-row send peaks anywhere from 94 to 105 MB, so a single pair of runs
// swung the growth figure by ±5 points. Targets: < 150 MB, and the largest size's
// median within 10% of the smallest's.
//
// POSIX only (a FIFO, /usr/bin/time; the sandbox's CPU from /proc on Linux).
// Usage: npm run build && node bench/batch-send.mjs [--rows 5000] [--concurrency 4] [--rounds 5] [--memory-rows 1000,100000] [--memory-repeat 3]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, benchEnv, BIN, consumerPipe, envDifferences, machine, median, processCpuMs, result, startSandbox, verdict } from './lib/common.mjs';

const ROWS = Number(arg('rows', '5000'));
const CONCURRENCY = Number(arg('concurrency', '4'));
const ROUNDS = Number(arg('rounds', '5'));
const MEMORY_ROWS = arg('memory-rows', '1000,100000').split(',').filter(Boolean).map(Number);
const MEMORY_REPEAT = Number(arg('memory-repeat', '3'));
const CPU_TARGET = 1.5;
const TEMPLATE = 'Hi {first_name}, see you tomorrow at {time}. Reply STOP to opt out.';
const RATIO_TARGET = 0.9;
const RSS_LIMIT_MB = 150;
const self = fileURLToPath(import.meta.url);
const rssPreload = fileURLToPath(new URL('./lib/max-rss.mjs', import.meta.url));

/** Row i: a unique fictional number (212) 55X-XXXX and the message msgctl renders for it. @param {number} i */
function row(i) {
  const national = `212${555 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, '0')}`;
  const time = `${8 + (i % 9)}:${String((i * 5) % 60).padStart(2, '0')}`;
  return {
    csv: `Pat${i},(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)},${time}`,
    // As msgctl sends it: the CSV's first_name column goes along for matching or creating the patient.
    body: { to: { phone: `+1${national}` }, body: `Hi Pat${i}, see you tomorrow at ${time}. Reply STOP to opt out.`, patient: { first_name: `Pat${i}` } },
  };
}

// Child mode: the bare loop, in a process of its own.
if (process.argv[2] === '--loop') {
  const [baseUrl, apiKey, rows] = [String(process.argv[3]), String(process.argv[4]), Number(process.argv[5])];
  const http = process.getBuiltinModule('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL(`${baseUrl}/patient-messages`);
  let next = 0;
  let failures = 0;
  /** @param {unknown} body @returns {Promise<number | undefined>} */
  const post = (body) =>
    new Promise((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = http.request(url, {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json, application/problem+json',
          'idempotency-key': crypto.randomUUID(),
          'content-length': Buffer.byteLength(payload),
        },
      }, (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(res.statusCode));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < rows) if ((await post(row(next++).body)) !== 201) failures++;
    }),
  );
  process.exit(failures ? 1 : 0);
}

const dir = mkdtempSync(join(tmpdir(), 'msgctl-bench-batch-'));
/** @param {number} rows */
function writeCsv(rows) {
  const file = join(dir, `rows-${rows}.csv`);
  const lines = ['First Name,Mobile Phone,Time'];
  for (let i = 0; i < rows; i++) lines.push(row(i).csv);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** @typedef {{ seconds: number, cpuSeconds: number, sandboxCpuSeconds: number }} Timed */

/**
 * Runs node with `args` under /usr/bin/time -v, stdout to `stdout` (a descriptor, or ignored):
 * wall and CPU seconds.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @param {number | 'ignore'} [stdout]
 */
async function timed(args, env, stdout = 'ignore') {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...args], { stdio: ['ignore', stdout, 'pipe'], env: benchEnv(env) });
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
  const [code] = await once(child, 'close'); // 'close', not 'exit': the last output may still be in the pipe at exit
  if (code !== 0) throw new Error(`${args.slice(1, 3).join(' ')} exited ${code}: ${stderr}`);
  const cpu = ['User', 'System'].map((kind) => Number(new RegExp(`${kind} time \\(seconds\\): ([\\d.]+)`).exec(stderr)?.[1] ?? NaN));
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: /** @type {number} */ (cpu[0]) + /** @type {number} */ (cpu[1]) };
}

/**
 * `send --csv` of `csv` against the sandbox of `info`.
 * @param {string} csv
 * @param {{ base_url: string, api_key: string }} info
 * @param {NodeJS.ProcessEnv} [extraEnv]
 * @param {number | 'ignore'} [stdout]
 */
async function cli(csv, info, extraEnv = {}, stdout = 'ignore') {
  const home = mkdtempSync(join(dir, 'home-'));
  const args = [BIN, 'send', '--csv', csv, '--template', TEMPLATE, '--concurrency', String(CONCURRENCY), '--json', '--quiet'];
  return timed(args, cliEnv(home, info, extraEnv), stdout);
}

/**
 * @param {string} home
 * @param {{ base_url: string, api_key: string }} info
 * @param {NodeJS.ProcessEnv} [extraEnv]
 * @returns {NodeJS.ProcessEnv}
 */
function cliEnv(home, info, extraEnv = {}) {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.state'),
    XDG_CACHE_HOME: join(tmpdir(), 'msgctl-bench-cache'), // the compile cache stays warm across runs, as for a user
    MSGCTL_BASE_URL: info.base_url,
    MSGCTL_API_KEY: info.api_key,
    ...extraEnv,
  };
}

/** CPU seconds a process has used so far (Linux /proc; NaN elsewhere). @param {number | undefined} pid */
function cpuSecondsOf(pid) {
  try {
    return processCpuMs(pid) / 1000;
  } catch {
    return NaN;
  }
}

/**
 * Runs `fn` against a fresh sandbox; adds the sandbox's CPU seconds during it.
 * @param {(info: { base_url: string, api_key: string }) => Promise<{ seconds: number, cpuSeconds: number }>} fn
 * @returns {Promise<Timed>}
 */
async function onFreshSandbox(fn) {
  const sandbox = await startSandbox();
  try {
    const before = cpuSecondsOf(sandbox.child.pid);
    const timing = await fn(sandbox.info);
    return { ...timing, sandboxCpuSeconds: cpuSecondsOf(sandbox.child.pid) - before };
  } finally {
    await sandbox.stop();
  }
}

const pipe = await consumerPipe();
const pipeFd = pipe.open();
try {
  const csv = writeCsv(ROWS);
  /** @type {{ msgctl: Timed, loop: Timed, ratio: number, cpuRatio: number }[]} */
  const pairs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const measure = {
      msgctl: () => onFreshSandbox((info) => cli(csv, info, {}, pipeFd)),
      loop: () => onFreshSandbox((info) => timed([self, '--loop', info.base_url, info.api_key, String(ROWS)], {})),
    };
    /** @type {('msgctl' | 'loop')[]} */
    const order = round % 2 ? ['msgctl', 'loop'] : ['loop', 'msgctl'];
    /** @type {Partial<Record<'msgctl' | 'loop', Timed>>} */
    const got = {};
    for (const name of order) got[name] = await measure[name]();
    const { msgctl, loop } = /** @type {Record<'msgctl' | 'loop', Timed>} */ (got);
    const ratio = loop.seconds / msgctl.seconds;
    const cpuRatio = msgctl.cpuSeconds / loop.cpuSeconds;
    pairs.push({ msgctl, loop, ratio, cpuRatio });
    const perRow = (/** @type {number} */ seconds) => `${((seconds * 1000) / ROWS).toFixed(3)} ms`;
    console.log(
      `pair ${round} (${order.join(' then ')}): msgctl ${(ROWS / msgctl.seconds).toFixed(0)} msg/s (${msgctl.seconds.toFixed(2)} s, CPU ${perRow(msgctl.cpuSeconds)}/row), ` +
        `loop ${(ROWS / loop.seconds).toFixed(0)} msg/s (${loop.seconds.toFixed(2)} s, CPU ${perRow(loop.cpuSeconds)}/row) -> ${(ratio * 100).toFixed(1)}%; ` +
        `sandbox CPU per message ${perRow(msgctl.sandboxCpuSeconds)} / ${perRow(loop.sandboxCpuSeconds)}`,
    );
  }
  if (ROUNDS > 0) {
    const ratio = median(pairs.map((p) => p.ratio));
    const cpuRatio = median(pairs.map((p) => p.cpuRatio));
    const pass = ratio >= RATIO_TARGET;
    const cpuPass = cpuRatio <= CPU_TARGET;
    const perRow = (/** @type {number[]} */ seconds) => `${((median(seconds) * 1000) / ROWS).toFixed(3)} ms`;
    console.log(
      `send --csv, ${ROWS} rows, concurrency ${CONCURRENCY}, stdout into a pipe read by a consumer, ${ROUNDS} interleaved pairs; ${machine()}\n` +
        `  ${envDifferences(benchEnv(cliEnv('<home>', { base_url: '<sandbox>', api_key: '<key>' })))}\n` +
        `  msgctl median ${(ROWS / median(pairs.map((p) => p.msgctl.seconds))).toFixed(0)} msg/s, loop median ${(ROWS / median(pairs.map((p) => p.loop.seconds))).toFixed(0)} msg/s\n` +
        `  median of paired ratios: msgctl at ${(ratio * 100).toFixed(1)}% of the bare loop (target >= ${RATIO_TARGET * 100}%) ${verdict(pass)}\n` +
        `  CPU per row: msgctl ${perRow(pairs.map((p) => p.msgctl.cpuSeconds))}, loop ${perRow(pairs.map((p) => p.loop.cpuSeconds))}; paired ${cpuRatio.toFixed(2)}x (target <= ${CPU_TARGET}x) ${verdict(cpuPass)}\n` +
        `  the sandbox's CPU per message: ${perRow(pairs.map((p) => p.msgctl.sandboxCpuSeconds))} for msgctl's, ${perRow(pairs.map((p) => p.loop.sandboxCpuSeconds))} for the loop's`,
    );
    result('batch-send', `send --csv ${ROWS} rows | pipe, share of bare loop`, ratio * 100, '%', `>= ${RATIO_TARGET * 100}%`, pass);
    result('batch-send', `send --csv CPU per row, paired x bare loop`, cpuRatio, 'x', `<= ${CPU_TARGET}x`, cpuPass);
  }

  if (MEMORY_ROWS.length) {
    /** @type {Map<number, { file: string, mb: number[], seconds: number[] }>} */
    const runs = new Map(MEMORY_ROWS.map((rows) => [rows, { file: writeCsv(rows), mb: [], seconds: [] }]));
    for (let repeat = 0; repeat < MEMORY_REPEAT; repeat++) {
      for (const [rows, run] of runs) {
        const rssFile = join(dir, `rss-${rows}-${repeat}`);
        const got = await onFreshSandbox((info) => cli(run.file, info, { NODE_OPTIONS: `--import=${rssPreload}`, MSGCTL_BENCH_RSS_FILE: rssFile }));
        run.seconds.push(got.seconds);
        run.mb.push(Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)));
      }
    }
    const peaks = [...runs].map(([rows, run]) => ({ rows, mb: median(run.mb), runs: run.mb, seconds: median(run.seconds) }));
    console.log(`send --csv peak RSS, stdout to /dev/null, median of ${MEMORY_REPEAT} runs (target < ${RSS_LIMIT_MB} MB, largest size within 10% of smallest)`);
    for (const p of peaks) {
      console.log(`  ${String(p.rows).padStart(7)} rows  ${p.mb.toFixed(1).padStart(6)} MB (${p.runs.map((mb) => mb.toFixed(1)).join(', ')})  ${p.seconds.toFixed(1)} s`);
    }
    const worst = Math.max(...peaks.flatMap((p) => p.runs));
    const growth = /** @type {{ mb: number }} */ (peaks.at(-1)).mb / /** @type {{ mb: number }} */ (peaks[0]).mb - 1;
    result('batch-send', `send --csv peak RSS (worst run at ${MEMORY_ROWS.join('/')} rows)`, worst, 'MB', `< ${RSS_LIMIT_MB} MB`, worst < RSS_LIMIT_MB);
    result('batch-send', `send --csv RSS growth ${MEMORY_ROWS[0]} -> ${MEMORY_ROWS.at(-1)} rows`, growth * 100, '%', '<= 10%', growth <= 0.1);
  }
} finally {
  pipe.close();
  rmSync(dir, { recursive: true, force: true });
}
