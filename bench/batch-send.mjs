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
// Reported: each pair's ratio (loop seconds / CLI seconds = CLI throughput as a
// share of the loop's) and their median. Target: median >= 90%.
//
// Memory (--memory-rows 1000,100000, the range; a 100k run takes ~2 min): the
// CLI's peak RSS per file size (maxRSS at exit), the median of --memory-repeat runs
// (default 3, each on a fresh sandbox, the sizes taking turns). One run is not enough:
// the same 1,000-row send peaks anywhere from 94 to 105 MB, so a single pair of runs
// swung the growth figure by ±5 points. Targets: < 150 MB, and the largest size's
// median within 10% of the smallest's.
//
// Usage: npm run build && node bench/batch-send.mjs [--rows 5000] [--concurrency 4] [--rounds 5] [--memory-rows 1000,100000] [--memory-repeat 3]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, BIN, load, median, result, startSandbox, verdict } from './lib/common.mjs';

const ROWS = Number(arg('rows', 5000));
const CONCURRENCY = Number(arg('concurrency', 4));
const ROUNDS = Number(arg('rounds', 5));
const MEMORY_ROWS = arg('memory-rows', '1000,100000').split(',').filter(Boolean).map(Number);
const MEMORY_REPEAT = Number(arg('memory-repeat', 3));
const TEMPLATE = 'Hi {first_name}, see you tomorrow at {time}. Reply STOP to opt out.';
const RATIO_TARGET = 0.9;
const RSS_LIMIT_MB = 150;
const self = fileURLToPath(import.meta.url);
const rssPreload = fileURLToPath(new URL('./lib/max-rss.mjs', import.meta.url));

/** Row i: a unique fictional number (212) 55X-XXXX and the message msgctl renders for it. */
function row(i) {
  const national = `212${555 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, '0')}`;
  const time = `${8 + (i % 9)}:${String((i * 5) % 60).padStart(2, '0')}`;
  return {
    csv: `Pat${i},(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)},${time}`,
    body: { to: { phone: `+1${national}` }, body: `Hi Pat${i}, see you tomorrow at ${time}. Reply STOP to opt out.` },
  };
}

// Child mode: the bare loop, in a process of its own.
if (process.argv[2] === '--loop') {
  const [baseUrl, apiKey, rows] = [process.argv[3], process.argv[4], Number(process.argv[5])];
  const http = process.getBuiltinModule('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL(`${baseUrl}/patient-messages`);
  let next = 0;
  let failures = 0;
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
function writeCsv(rows) {
  const file = join(dir, `rows-${rows}.csv`);
  const lines = ['First Name,Mobile Phone,Time'];
  for (let i = 0; i < rows; i++) lines.push(row(i).csv);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

async function timed(args, env) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH, ...env } });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-2000)));
  const [code] = await once(child, 'close'); // 'close', not 'exit': the last output may still be in the pipe at exit
  if (code !== 0) throw new Error(`${args.slice(1, 3).join(' ')} exited ${code}: ${stderr}`);
  return (performance.now() - started) / 1000;
}

async function cli(csv, info, extraEnv = {}) {
  const home = mkdtempSync(join(dir, 'home-'));
  const args = [BIN, 'send', '--csv', csv, '--template', TEMPLATE, '--concurrency', String(CONCURRENCY), '--json', '--quiet'];
  return timed(args, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.state'),
    XDG_CACHE_HOME: join(tmpdir(), 'msgctl-bench-cache'), // the compile cache stays warm across runs, as for a user
    MSGCTL_BASE_URL: info.base_url,
    MSGCTL_API_KEY: info.api_key,
    ...extraEnv,
  });
}

async function onFreshSandbox(fn) {
  const sandbox = await startSandbox();
  try {
    return await fn(sandbox.info);
  } finally {
    await sandbox.stop();
  }
}

try {
  const csv = writeCsv(ROWS);
  const pairs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const measure = {
      msgctl: () => onFreshSandbox((info) => cli(csv, info)),
      loop: () => onFreshSandbox((info) => timed([self, '--loop', info.base_url, info.api_key, String(ROWS)], {})),
    };
    const order = round % 2 ? ['msgctl', 'loop'] : ['loop', 'msgctl'];
    const seconds = {};
    for (const name of order) seconds[name] = await measure[name]();
    const ratio = seconds.loop / seconds.msgctl;
    pairs.push({ ...seconds, ratio });
    console.log(
      `pair ${round} (${order.join(' then ')}): msgctl ${(ROWS / seconds.msgctl).toFixed(0)} msg/s (${seconds.msgctl.toFixed(2)} s), ` +
        `loop ${(ROWS / seconds.loop).toFixed(0)} msg/s (${seconds.loop.toFixed(2)} s) -> ${(ratio * 100).toFixed(1)}%`,
    );
  }
  const ratio = median(pairs.map((p) => p.ratio));
  const pass = ratio >= RATIO_TARGET;
  if (ROUNDS > 0) console.log(
    `send --csv, ${ROWS} rows, concurrency ${CONCURRENCY}, ${ROUNDS} interleaved pairs, load ${load()}:\n` +
      `  msgctl median ${(ROWS / median(pairs.map((p) => p.msgctl))).toFixed(0)} msg/s, loop median ${(ROWS / median(pairs.map((p) => p.loop))).toFixed(0)} msg/s\n` +
      `  median of paired ratios: msgctl at ${(ratio * 100).toFixed(1)}% of the bare loop (target >= ${RATIO_TARGET * 100}%) ${verdict(pass)}`,
  );
  if (ROUNDS > 0) result('batch-send', `send --csv ${ROWS} rows, share of bare loop`, ratio * 100, '%', `>= ${RATIO_TARGET * 100}%`, pass);

  if (MEMORY_ROWS.length) {
    const runs = new Map(MEMORY_ROWS.map((rows) => [rows, { file: writeCsv(rows), mb: [], seconds: [] }]));
    for (let repeat = 0; repeat < MEMORY_REPEAT; repeat++) {
      for (const [rows, run] of runs) {
        const rssFile = join(dir, `rss-${rows}-${repeat}`);
        run.seconds.push(await onFreshSandbox((info) => cli(run.file, info, { NODE_OPTIONS: `--import=${rssPreload}`, MSGCTL_BENCH_RSS_FILE: rssFile })));
        run.mb.push(Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)));
      }
    }
    const peaks = [...runs].map(([rows, run]) => ({ rows, mb: median(run.mb), runs: run.mb, seconds: median(run.seconds) }));
    console.log(`send --csv peak RSS, median of ${MEMORY_REPEAT} runs (target < ${RSS_LIMIT_MB} MB, largest size within 10% of smallest)`);
    for (const p of peaks) {
      console.log(`  ${String(p.rows).padStart(7)} rows  ${p.mb.toFixed(1).padStart(6)} MB (${p.runs.map((mb) => mb.toFixed(1)).join(', ')})  ${p.seconds.toFixed(1)} s`);
    }
    const worst = Math.max(...peaks.flatMap((p) => p.runs));
    const growth = peaks.at(-1).mb / peaks[0].mb - 1;
    result('batch-send', `send --csv peak RSS (worst run at ${MEMORY_ROWS.join('/')} rows)`, worst, 'MB', `< ${RSS_LIMIT_MB} MB`, worst < RSS_LIMIT_MB);
    result('batch-send', `send --csv RSS growth ${MEMORY_ROWS[0]} -> ${MEMORY_ROWS.at(-1)} rows`, growth * 100, '%', '<= 10%', growth <= 0.1);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
