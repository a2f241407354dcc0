// `messages list --after <old date> --all --json > /dev/null` against a sandbox
// seeded with N messages: the CLI's records/s and peak RSS, next to a ceiling,
// a bare node:http loop over the same pages in its own process (it finds each
// page's cursor in the raw text and parses no records: no more work than the CLI). Targets: CLI >= 80% of the ceiling's
// records/s; CLI peak RSS < 150 MB and flat as N grows.
// Usage: npm run build && node bench/stream-messages.mjs [N…]   (default 20000 200000)
//        MSGCTL_BENCH_RUNS=N runs per measurement (default 5, median reported; CPU seconds shown too,
//        since on a busy machine wall-clock rates swing with the load).
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { median, result } from './lib/common.mjs';

const SELF = fileURLToPath(import.meta.url);
const BIN = process.env.MSGCTL_BENCH_BIN ?? fileURLToPath(new URL('../bin/msgctl.js', import.meta.url));
const AFTER = '2000-01-01';
const RSS_LIMIT_MB = 150;
const RATIO_TARGET = 0.8;

if (process.argv[2] === '--ceiling') {
  await ceiling(process.argv[3], process.argv[4]);
} else {
  await main();
}

/**
 * The ceiling: fetch every page as fast as one client can (node:http, keep-alive, as the
 * CLI), no output. It does no more work than the CLI: it finds each page's cursor in the
 * raw text, without parsing the records (the CLI copies records through unparsed too).
 */
async function ceiling(baseUrl, apiKey) {
  const http = process.getBuiltinModule('node:http');
  const agent = new http.Agent({ keepAlive: true });
  const get = (url) =>
    new Promise((resolve, reject) => {
      http.get(url, { agent, headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`))));
        res.on('error', reject);
      }).on('error', reject);
    });
  let cursor = null;
  let pages = 0;
  do {
    const url = new URL(`${baseUrl}/patient-messages`);
    url.searchParams.set('after', AFTER);
    url.searchParams.set('page[limit]', '100');
    if (cursor) url.searchParams.set('page[after]', cursor);
    const text = await get(url);
    pages++;
    // "next_cursor": null | "…" — the pagination object ends the page.
    const at = text.lastIndexOf('"next_cursor"');
    if (at < 0) throw new Error('no next_cursor in the page');
    const value = /^"next_cursor"\s*:\s*(null|"(?:[^"\\]|\\.)*")/.exec(text.slice(at));
    cursor = value && value[1] !== 'null' ? JSON.parse(value[1]) : null;
  } while (cursor);
  process.stdout.write(`${pages}\n`);
  agent.destroy();
}

async function main() {
  const sizes = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number);
  if (sizes.length === 0) sizes.push(20_000, 200_000);
  const runs = Number(process.env.MSGCTL_BENCH_RUNS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'msgctl-bench-stream-'));
  const results = [];
  for (const n of sizes) {
    const seedStarted = performance.now();
    const sandbox = await startSandbox(n);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    try {
      const env = {
        PATH: process.env.PATH,
        HOME: mkdtempSync(join(dir, 'home-')),
        MSGCTL_BASE_URL: sandbox.info.base_url,
        MSGCTL_API_KEY: sandbox.info.api_key,
        NO_COLOR: '1',
      };
      env.XDG_CONFIG_HOME = join(env.HOME, '.config');
      const cli = [];
      const bare = [];
      // Once, to check both read everything: the CLI prints one line per record.
      const check = await timed([BIN, 'messages', 'list', '--after', AFTER, '--all', '--json'], env, 'pipe');
      const records = check.stdout.split('\n').filter(Boolean).length;
      if (records !== n) throw new Error(`expected ${n} records, the CLI printed ${records}`);
      const pages = Number((await timed([SELF, '--ceiling', sandbox.info.base_url, sandbox.info.api_key], env, 'pipe')).stdout.trim());
      if (pages !== Math.ceil(n / 100) && pages !== Math.ceil(n / 100) + 1) throw new Error(`the ceiling read ${pages} pages for ${n} records`);
      // Pairs in alternating order, so a slow moment on the machine hurts both sides alike.
      for (let i = 0; i < runs; i++) {
        const runCeiling = async () => bare.push(await timed([SELF, '--ceiling', sandbox.info.base_url, sandbox.info.api_key], env, 'pipe'));
        const runCli = async () => cli.push(await timed([BIN, 'messages', 'list', '--after', AFTER, '--all', '--json'], env, 'null'));
        if (i % 2) {
          await runCli();
          await runCeiling();
        } else {
          await runCeiling();
          await runCli();
        }
      }
      const c = medianRun(cli, 'seconds');
      const b = medianRun(bare, 'seconds');
      // Each CLI run is compared with the ceiling run of its pair (same load on the machine).
      const ratios = cli.map((r, i) => bare[i].seconds / r.seconds);
      results.push({
        n,
        seedSeconds,
        cliRate: n / c.seconds,
        bareRate: n / b.seconds,
        ratio: median(ratios),
        cliCpu: medianRun(cli, 'cpuSeconds').cpuSeconds,
        bareCpu: medianRun(bare, 'cpuSeconds').cpuSeconds,
        cliRss: Math.max(...cli.map((r) => r.rssMb)),
        bareRss: Math.max(...bare.map((r) => r.rssMb)),
      });
    } finally {
      sandbox.child.kill('SIGINT');
      await once(sandbox.child, 'exit');
    }
  }

  console.log(`messages list --after ${AFTER} --all --json > /dev/null   (median of ${runs} runs, wall clock incl. process start;`);
  console.log('CLI/ceiling is the median of the ratios of back-to-back runs)');
  console.log('       N   seed s    CLI rec/s  ceiling rec/s   CLI/ceiling   CLI peak RSS   ceiling peak RSS   CPU s CLI/ceiling');
  let ok = true;
  for (const r of results) {
    const ratio = r.ratio;
    console.log(
      `${String(r.n).padStart(8)} ${r.seedSeconds.toFixed(1).padStart(8)} ${fmt(r.cliRate).padStart(12)} ${fmt(r.bareRate).padStart(14)} ` +
        `${(ratio * 100).toFixed(0).padStart(12)}% ${r.cliRss.toFixed(0).padStart(11)} MB ${r.bareRss.toFixed(0).padStart(15)} MB` +
        `${r.cliCpu.toFixed(2).padStart(12)} / ${r.bareCpu.toFixed(2)}`,
    );
    if (ratio < RATIO_TARGET || r.cliRss >= RSS_LIMIT_MB) ok = false;
  }
  const rss = results.map((r) => r.cliRss);
  const growth = Math.max(...rss) - Math.min(...rss);
  console.log(`CLI peak RSS spread across N: ${growth.toFixed(1)} MB`);
  console.log(ok ? `targets met (>= ${RATIO_TARGET * 100}% of ceiling, < ${RSS_LIMIT_MB} MB) PASS` : 'TARGETS MISSED FAIL');
  for (const r of results) {
    result('stream-messages', `messages list ${r.n} records, share of ceiling`, r.ratio * 100, '%', `>= ${RATIO_TARGET * 100}%`, r.ratio >= RATIO_TARGET);
    result('stream-messages', `messages list ${r.n} records, peak RSS`, r.cliRss, 'MB', `< ${RSS_LIMIT_MB} MB`, r.cliRss < RSS_LIMIT_MB);
  }
  process.exitCode = ok ? 0 : 1;
}

async function startSandbox(n) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', '--rate-limit', '0', '--seed-messages', String(n)], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  return { child, info: JSON.parse(line) };
}

/** Runs node with `args` under /usr/bin/time -v: wall seconds, peak RSS, stdout. */
async function timed(args, env, stdout) {
  const devNull = stdout === 'null' ? openSync('/dev/null', 'w') : null;
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...args], {
    stdio: ['ignore', devNull ?? 'pipe', 'pipe'],
    env,
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const [code] = await once(child, 'close'); // 'close', not 'exit': the last output may still be in the pipe at exit
  const seconds = (performance.now() - started) / 1000;
  if (devNull !== null) closeSync(devNull);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}:\n${err}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
  const user = /User time \(seconds\): ([\d.]+)/.exec(err);
  const sys = /System time \(seconds\): ([\d.]+)/.exec(err);
  const cpuSeconds = Number(user?.[1] ?? NaN) + Number(sys?.[1] ?? NaN);
  return { seconds, cpuSeconds, rssMb: rss ? Number(rss[1]) / 1024 : NaN, stdout: out };
}

/** The run with the median `key` (of an even count, the upper of the middle two: a row is shown, not a mean). */
function medianRun(list, key) {
  const sorted = [...list].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor(sorted.length / 2)];
}

function fmt(n) {
  return Math.round(n).toLocaleString('en-US');
}
