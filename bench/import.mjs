// `imports create --wait` on generated rosters of growing size: rows per
// second end to end, and the CLI's peak resident memory (VmHWM), which must
// stay under 150 MB and flat (within 10%) as the file grows.
// Usage: npm run build && node bench/import.mjs [--instant] [--repeat N] [rows…]   (default 10000 100000)
// --repeat N: N runs per size, each on a fresh sandbox; the peak RSS of a size is the
// median of its runs (every run is printed). Peak RSS moves by ±5 MB between identical
// runs (malloc arenas of the two threads), so one run per size can tip the 10% either way.
// --instant: against a stand-in that finishes each import at once
// (lib/instant-imports.mjs) instead of a sandbox: the CLI's worst case for
// memory, and seconds instead of many minutes.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, openSync, readFileSync, closeSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchEnv, envDifferences, machine, median, result, verdict } from './lib/common.mjs';
import { startInstantImports } from './lib/instant-imports.mjs';

/** The stand-in server, shaped like a sandbox here. @returns {Promise<Server>} */
async function instantServer() {
  const server = await startInstantImports();
  return { info: server.info, stop: server.close };
}

const instant = process.argv.includes('--instant');
const repeatAt = process.argv.indexOf('--repeat');
const REPEAT = repeatAt > 0 ? Number(process.argv[repeatAt + 1]) : 1;
if (!(Number.isInteger(REPEAT) && REPEAT >= 1)) throw new Error('--repeat takes a whole number >= 1');
const sizes = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--repeat').map(Number);
if (sizes.length === 0) sizes.push(10_000, 100_000);
const bin = fileURLToPath(new URL('../bin/msgctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'msgctl-bench-import-'));
const RSS_LIMIT_MB = 150;

/** A roster with unique fictional phones (555-2XX-XXXX), US dates (month first: --month-first), every 100th row with an impossible date. @param {string} file @param {number} rows */
async function writeRoster(file, rows) {
  const out = createWriteStream(file);
  const write = (/** @type {string} */ line) => (out.write(line) ? undefined : once(out, 'drain'));
  await write('First Name,Last Name,DOB,Mobile Phone,Email,MRN\n');
  for (let i = 0; i < rows; i++) {
    const phone = `(555) ${200 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
    const dob = i % 100 === 99 ? '02/30/1980' : `${1 + (i % 12)}/${1 + (i % 28)}/${1940 + (i % 60)}`;
    await write(`Pat${i},"Bench, ${i}",${dob},${phone},pat${i}@example.com,B-${i}\n`);
  }
  out.end();
  await once(out, 'finish');
}

/** @typedef {{ info: { base_url: string, api_key: string }, stop(): Promise<void> }} Server */

/** @returns {Promise<Server>} */
async function startSandbox() {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--rate-limit', '0', '--time-scale', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: benchEnv(),
  });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  return {
    info: JSON.parse(line),
    async stop() {
      child.kill('SIGINT');
      await once(child, 'exit');
    },
  };
}

/** Peak RSS of a running process in MB, from /proc (Linux). @param {number | undefined} pid */
function peakRssMb(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null; // already gone
  }
}

/** @param {string} file @param {Server} sandbox */
async function importOnce(file, sandbox) {
  const home = mkdtempSync(join(dir, 'home-'));
  const devNull = openSync('/dev/null', 'w');
  const started = performance.now();
  const cli = spawn(process.execPath, [bin, 'imports', 'create', file, '--month-first', '--wait', '--json', '--quiet'], {
    // stderr lists the deliberately invalid rows; kept only to explain a failure.
    stdio: ['ignore', devNull, 'pipe'],
    env: benchEnv({
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      MSGCTL_BASE_URL: sandbox.info.base_url,
      MSGCTL_API_KEY: sandbox.info.api_key,
    }),
  });
  let stderr = '';
  cli.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, peakRssMb(cli.pid) ?? 0);
  }, 50);
  const [code] = /** @type {[number]} */ (await once(cli, 'exit'));
  clearInterval(poll);
  closeSync(devNull);
  return { code, seconds: (performance.now() - started) / 1000, peak, stderr };
}

/** @type {{ rows: number, mb: number, seconds: number, peak: number, peaks: number[] }[]} */
const results = [];
try {
  for (const rows of sizes) {
    const file = join(dir, `roster-${rows}.csv`);
    await writeRoster(file, rows);
    /** @type {{ code: number, seconds: number, peak: number, stderr: string }[]} */
    const runs = [];
    for (let run = 0; run < REPEAT; run++) {
      // Fresh per run, so earlier imports do not slow matching.
      /** @type {Server} */
      const sandbox = instant ? await instantServer() : await startSandbox();
      try {
        const r = await importOnce(file, sandbox);
        // 1% of rows are invalid on purpose, so a complete run exits 10.
        if (r.code !== 10) throw new Error(`imports create exited ${r.code} for ${rows} rows:\n${r.stderr}`);
        runs.push(r);
      } finally {
        await sandbox.stop();
      }
    }
    results.push({ rows, mb: statSync(file).size / 2 ** 20, seconds: median(runs.map((r) => r.seconds)), peak: median(runs.map((r) => r.peak)), peaks: runs.map((r) => r.peak) });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const server = instant ? 'instant stand-in server' : 'sandbox at --time-scale 0';
console.log(`imports create --wait --json, ${server} (CLI peak RSS target < ${RSS_LIMIT_MB} MB, flat)`);
console.log(`     rows    file MB    seconds     rows/s   CLI peak RSS MB${REPEAT > 1 ? ` (median of ${REPEAT}: each run)` : ''}`);
for (const r of results) {
  console.log(
    `${String(r.rows).padStart(9)} ${r.mb.toFixed(1).padStart(10)} ${r.seconds.toFixed(1).padStart(10)} ` +
      `${Math.round(r.rows / r.seconds).toString().padStart(10)} ${r.peak.toFixed(1).padStart(17)}` +
      (REPEAT > 1 ? ` (${r.peaks.map((mb) => mb.toFixed(1)).join(', ')})` : ''),
  );
}
// The ceiling is judged on every run (the worst one), flatness on the medians.
const worst = Math.max(...results.flatMap((r) => r.peaks));
const [first, last] = /** @type {[(typeof results)[number], (typeof results)[number]]} */ ([results[0], results.at(-1)]);
const growth = last.peak / first.peak - 1;
console.log(`${machine()}; ${envDifferences(benchEnv({ HOME: '<home>', XDG_CONFIG_HOME: '<home>/.config', MSGCTL_BASE_URL: '<server>', MSGCTL_API_KEY: '<key>' }))}`);
console.log(`worst peak ${worst.toFixed(1)} MB (< ${RSS_LIMIT_MB} MB ${verdict(worst < RSS_LIMIT_MB)}); ` +
  `${first.rows} -> ${last.rows} rows: ${(growth * 100).toFixed(1)}% (flat: <= 10% ${verdict(growth <= 0.1)})`);
const how = instant ? ', instant server' : '';
result('import', `imports create --wait peak RSS (max of ${sizes.join('/')} rows${how})`, worst, 'MB', `< ${RSS_LIMIT_MB} MB`, worst < RSS_LIMIT_MB);
result('import', `imports create RSS growth ${sizes[0]} -> ${sizes.at(-1)} rows${how}`, growth * 100, '%', '<= 10%', growth <= 0.1);
if (worst >= RSS_LIMIT_MB || growth > 0.1) process.exitCode = 1;
