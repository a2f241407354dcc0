// `messages list --after <old date> --all --json` against a sandbox seeded with N messages, into a
// real pipe read by a consumer (`| consumer`, the target) and into /dev/null, next to a bare loop
// in its own process that fetches the same pages (node:http, keep-alive, as the CLI) and writes the
// same records, one JSON line each, into the same consumer (or /dev/null). Pairs in alternating
// order; each CLI run is divided by the loop run of its pair.
// Targets (issue 30, target 4): the CLI >= 90% of the loop's records/s into the pipe; CLI peak
// RSS < 150 MB at every N.
// Usage: npm run build && node bench/stream-messages.mjs [N…]   (default 20000 100000)
//        MSGCTL_BENCH_RUNS=N pairs per measurement (default 5; CPU seconds are shown too, since on a
//        busy machine wall-clock rates swing with the load).
// POSIX only (a FIFO, /usr/bin/time -v for peak RSS and CPU).
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, BIN, consumerPipe, envDifferences, machine, median, result, startSandbox, verdict } from './lib/common.mjs';

const SELF = fileURLToPath(import.meta.url);
const AFTER = '2000-01-01';
const RSS_LIMIT_MB = 150;
const RATIO_TARGET = 0.9;

if (process.argv[2] === '--loop') {
  await loop(/** @type {string} */ (process.argv[3]), /** @type {string} */ (process.argv[4]));
} else {
  await main();
}

/**
 * The bare loop: every page as fast as one client can fetch it (node:http, keep-alive), each
 * record written to stdout as one JSON line, as `msgctl … --json` prints them.
 * @param {string} baseUrl
 * @param {string} apiKey
 */
async function loop(baseUrl, apiKey) {
  const http = process.getBuiltinModule('node:http');
  const agent = new http.Agent({ keepAlive: true });
  /** @param {URL} url @returns {Promise<string>} */
  const get = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent, headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } }, (res) => {
          /** @type {Buffer[]} */
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`))));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  /** @type {string | null} */
  let cursor = null;
  do {
    const url = new URL(`${baseUrl}/patient-messages`);
    url.searchParams.set('after', AFTER);
    url.searchParams.set('page[limit]', '100');
    if (cursor) url.searchParams.set('page[after]', cursor);
    /** @type {{ data: unknown[], pagination: { next_cursor: string | null } }} */
    const page = JSON.parse(await get(url));
    let text = '';
    for (const record of page.data) text += `${JSON.stringify(record)}\n`;
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
    cursor = page.pagination.next_cursor;
  } while (cursor);
  agent.destroy();
}

/** @typedef {{ seconds: number, cpuSeconds: number, rssMb: number, stdout: string }} Run */

async function main() {
  const sizes = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number);
  if (sizes.length === 0) sizes.push(20_000, 100_000);
  const runs = Number(process.env.MSGCTL_BENCH_RUNS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'msgctl-bench-stream-'));
  const pipe = await consumerPipe();
  const pipeFd = pipe.open();
  const devNull = openSync('/dev/null', 'w');
  /** @type {{ n: number, out: string, cliRate: number, loopRate: number, ratio: number, cliCpu: number, loopCpu: number, cliRss: number }[]} */
  const results = [];
  /** @type {NodeJS.ProcessEnv} */
  let env = {};
  try {
    for (const n of sizes) {
      const sandbox = await startSandbox(['--seed-messages', String(n)]);
      try {
        const home = mkdtempSync(join(dir, 'home-'));
        env = benchEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), MSGCTL_BASE_URL: sandbox.info.base_url, MSGCTL_API_KEY: sandbox.info.api_key, NO_COLOR: '1' });
        const cliArgs = [BIN, 'messages', 'list', '--after', AFTER, '--all', '--json'];
        const loopArgs = [SELF, '--loop', sandbox.info.base_url, sandbox.info.api_key];
        // Once, to check both print every record, one line each.
        for (const [name, args] of /** @type {const} */ ([['the CLI', cliArgs], ['the loop', loopArgs]])) {
          const lines = (await timed(args, env, 'pipe')).stdout.split('\n').filter(Boolean).length;
          if (lines !== n) throw new Error(`expected ${n} records, ${name} printed ${lines}`);
        }
        for (const [out, fd] of /** @type {const} */ ([['| pipe', pipeFd], ['> /dev/null', devNull]])) {
          /** @type {Run[]} */
          const cli = [];
          /** @type {Run[]} */
          const bare = [];
          // Pairs in alternating order, so a slow moment on the machine hurts both sides alike.
          for (let i = 0; i < runs; i++) {
            const runLoop = async () => bare.push(await timed(loopArgs, env, fd));
            const runCli = async () => cli.push(await timed(cliArgs, env, fd));
            if (i % 2) {
              await runCli();
              await runLoop();
            } else {
              await runLoop();
              await runCli();
            }
          }
          results.push({
            n,
            out,
            cliRate: n / median(cli.map((r) => r.seconds)),
            loopRate: n / median(bare.map((r) => r.seconds)),
            ratio: median(cli.map((r, i) => /** @type {Run} */ (bare[i]).seconds / r.seconds)),
            cliCpu: median(cli.map((r) => r.cpuSeconds)),
            loopCpu: median(bare.map((r) => r.cpuSeconds)),
            cliRss: Math.max(...cli.map((r) => r.rssMb)),
          });
        }
      } finally {
        await sandbox.stop();
      }
    }
  } finally {
    pipe.close();
    closeSync(devNull);
    rmSync(dir, { recursive: true, force: true });
  }

  console.log(`messages list --after ${AFTER} --all --json, ${runs} pairs per row (median of paired ratios); ${machine()}`);
  console.log(envDifferences(env));
  console.log('       N  output         CLI rec/s  loop rec/s  CLI/loop  CPU s CLI/loop  CLI peak RSS');
  for (const r of results) {
    console.log(
      `${String(r.n).padStart(8)}  ${r.out.padEnd(12)} ${fmt(r.cliRate).padStart(10)} ${fmt(r.loopRate).padStart(11)} ${(r.ratio * 100).toFixed(1).padStart(8)}%` +
        `${r.cliCpu.toFixed(2).padStart(9)} / ${r.loopCpu.toFixed(2)} ${r.cliRss.toFixed(0).padStart(10)} MB`,
    );
    const target = r.out === '| pipe';
    const pass = target ? r.ratio >= RATIO_TARGET : null;
    result('stream-messages', `messages list ${r.n} records ${r.out}, share of the bare loop`, r.ratio * 100, '%', target ? `>= ${RATIO_TARGET * 100}%` : null, pass);
    if (target) console.log(`  ${r.n} records into a pipe: ${(r.ratio * 100).toFixed(1)}% of the loop (target >= ${RATIO_TARGET * 100}%) ${verdict(pass)}`);
  }
  for (const n of sizes) {
    const rss = Math.max(...results.filter((r) => r.n === n).map((r) => r.cliRss));
    result('stream-messages', `messages list ${n} records, peak RSS`, rss, 'MB', `< ${RSS_LIMIT_MB} MB`, rss < RSS_LIMIT_MB);
  }
}

/**
 * Runs node with `args` under /usr/bin/time -v: wall seconds, CPU seconds, peak RSS, and stdout
 * when `stdout` is 'pipe' (captured here) rather than a descriptor.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @param {'pipe' | number} stdout
 * @returns {Promise<Run>}
 */
async function timed(args, env, stdout) {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...args], { stdio: ['ignore', stdout, 'pipe'], env });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d) => (err += d));
  const [code] = await once(child, 'close'); // 'close', not 'exit': the last output may still be in the pipe at exit
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}:\n${err}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
  const user = /User time \(seconds\): ([\d.]+)/.exec(err);
  const sys = /System time \(seconds\): ([\d.]+)/.exec(err);
  const cpuSeconds = Number(user?.[1] ?? NaN) + Number(sys?.[1] ?? NaN);
  return { seconds, cpuSeconds, rssMb: rss ? Number(rss[1]) / 1024 : NaN, stdout: out };
}

/** @param {number} n */
function fmt(n) {
  return Math.round(n).toLocaleString('en-US');
}
