// The sandbox's store under real amounts of data (issue 14): the built CLI's
// `msgctl sandbox` with a --data file holding N synthetic messages, measured
// from outside as a user meets it. With --base DIR (a checkout of an older
// commit, built), every measurement also runs against that build, the two
// interleaved round by round so a machine getting busier favours neither.
//
//   start        spawn `msgctl sandbox --data FILE` to its first output line
//   POST         sequential POST /patient-messages: median and p99 latency
//   4 writers    four concurrent POST loops for a few seconds: writes/s
//   list --all   `msgctl messages list --all --json` over every message
//                (base: its in-memory store, as today; this build: --data)
//   RSS          the sandbox's resident memory after start and after the writes
//   GET /patients  autocannon on GET /patients?page[limit]=50 beside a bare
//                fastify route serving the same bytes
//   kill -9      a stream of writes, SIGKILL, restart: every 2xx write there,
//                no side files left after a clean stop
//   growth       (--growth) `patients list --all` at 10k and 100k patients
//
// Usage: npm run build && node bench/sandbox-db.mjs [--messages 200000] [--rounds 3]
//          [--posts 300] [--base /path/to/old/checkout --base-posts 10] [--growth]
//          [--only get-patients] [--pairs 15] [--duration 1]
// --only get-patients: each round measures only GET /patients beside bare fastify (no POSTs,
// writers, list --all, kill -9 or growth); --pairs: autocannon runs per server and round, in
// rotating order (the ratios are the median of the paired runs); --duration: seconds per run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
// @ts-expect-error autocannon ships no types; it is called once below, with its documented options.
import autocannon from 'autocannon';
import { benchEnv, envDifferences, machine, median, processCpuMs, result } from './lib/common.mjs'; // of an even count, the mean of the middle two

/** @param {string} name @param {string} [fallback] @returns {string | undefined} */
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const MESSAGES = Number(arg('messages', '200000'));
const ROUNDS = Number(arg('rounds', '3'));
const POSTS = Number(arg('posts', '300'));
const BASE_POSTS = Number(arg('base-posts', '10'));
const ONLY = arg('only');
if (ONLY !== undefined && ONLY !== 'get-patients') throw new Error(`--only takes get-patients (got ${ONLY})`);
const GROWTH = process.argv.includes('--growth') && !ONLY;
const DURATION = Number(arg('duration', '1'));
/** GET /patients: runs of DURATION seconds per server per pair, in rotating order; the ratios are the pairs' median. */
const PAIRS = Number(arg('pairs', '15'));
const here = fileURLToPath(new URL('..', import.meta.url));
/** @typedef {{ name: string, dir: string, posts: number, legacy?: boolean, data?: string }} Build */
/** @type {Build[]} */
const builds = [{ name: 'this build', dir: here, posts: POSTS }];
const baseDir = arg('base');
if (baseDir) builds.unshift({ name: 'base', dir: baseDir, posts: BASE_POSTS, legacy: true });
const mine = /** @type {Build} */ (builds.at(-1));
const work = mkdtempSync(join(tmpdir(), 'msgctl-bench-db-'));
/** @param {number[]} xs @param {number} p */
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
/** @param {string} line */
const log = (line) => process.stderr.write(`${line}\n`);

function env() {
  const home = mkdtempSync(join(work, 'home-'));
  return benchEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.local', 'state'), DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', NO_COLOR: '1' });
}

/** @typedef {{ base_url: string, api_key: string, organization_id: string }} Info */
/** @typedef {{ child: import('node:child_process').ChildProcess, info: Info, startMs: number, stderr: () => string }} Sandbox */

/** @param {Build} build @param {string[]} args @returns {Promise<Sandbox>} */
async function startSandbox(build, args) {
  const started = performance.now();
  const child = spawn(process.execPath, [join(build.dir, 'bin/msgctl.js'), 'sandbox', '--port', '0', '--json', '--rate-limit', '0', ...args], {
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  /** @type {string} */
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${stderr}`)));
  });
  const info = JSON.parse(line);
  return { child, info, startMs: performance.now() - started, stderr: () => stderr };
}

/** @param {Sandbox} sandbox @param {NodeJS.Signals} [signal] */
async function stop(sandbox, signal = 'SIGINT') {
  sandbox.child.kill(signal);
  if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) await once(sandbox.child, 'exit');
}

/** @param {number | undefined} pid */
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

let phoneSeq = 0;
/** @param {Info} info @returns {Promise<{ status: number, id: string | undefined }>} */
async function post(info) {
  const n = phoneSeq++;
  const phone = `+1212${String(5550000 + (n % 9000)).padStart(7, '0')}`;
  const res = await fetch(`${info.base_url}/patient-messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${info.api_key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ to: { phone }, body: `bench ${n}` }),
  });
  const body = /** @type {{ message?: { id?: string } } | null} */ (await res.json());
  return { status: res.status, id: body?.message?.id };
}

/** @param {Build} build @param {Info} info @param {string[]} args */
async function timeCli(build, info, args) {
  const started = performance.now();
  const child = spawn(process.execPath, [join(build.dir, 'bin/msgctl.js'), ...args], {
    env: { ...env(), MSGCTL_BASE_URL: info.base_url, MSGCTL_API_KEY: info.api_key },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let lines = 0;
  child.stdout.on('data', (d) => {
    for (const b of d) if (b === 10) lines++;
  });
  const [code] = await once(child, 'close'); // 'close', not 'exit': the last output may still be in the pipe at exit
  if (code !== 0) throw new Error(`msgctl ${args.join(' ')} exited ${code}`);
  return { ms: performance.now() - started, lines };
}

/**
 * One autocannon run: requests per second, and the server's CPU time per request (user + system
 * of `pid` from /proc, over the run's requests), which holds at any load where the rate does not.
 * @param {string} url @param {Record<string, string>} headers @param {number} pid
 * @returns {Promise<{ rps: number, requests: number, cpuMs: number }>}
 */
async function cannon(url, headers, pid) {
  const before = processCpuMs(pid);
  const result = await autocannon({ url, headers, connections: 10, duration: DURATION });
  return { rps: result.requests.average, requests: result.requests.total, cpuMs: processCpuMs(pid) - before };
}

/**
 * A child process printing its address on its first line (a ceiling or a peer server).
 * @param {string[]} argv node's arguments
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, address: string }>}
 */
async function serverProcess(argv) {
  const child = spawn(process.execPath, argv, { cwd: here, stdio: ['ignore', 'pipe', 'inherit'], env: env() });
  const address = await new Promise((resolve) => createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) }).once('line', resolve));
  return { child, address: String(address).trim() };
}

/**
 * json-server (npm), a popular local mock, serving the same 50 patients as one collection:
 * `GET /patients?_limit=50` answers them as a JSON array (no auth, no cursor).
 * @param {unknown[]} patients
 */
async function peerMock(patients) {
  const db = join(work, `json-server-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(db, JSON.stringify({ patients }));
  const script = `
    const jsonServer = require('json-server');
    const server = jsonServer.create();
    server.use(jsonServer.router(process.argv[1]));
    const listener = server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + listener.address().port));`;
  return serverProcess(['-e', script, db]);
}

/** @type {Map<string, number[]>} `${build}|${metric}` → values */
const results = new Map();
/** @param {Build} build @param {string} metric @param {number} value */
const record = (build, metric, value) => {
  const key = `${build.name}|${metric}`;
  const values = results.get(key) ?? [];
  results.set(key, values);
  values.push(value);
};

// 1. One data file per build, seeded once (the same seed gives the same world).
for (const build of builds) {
  build.data = join(work, `${build.legacy ? 'base.json' : 'sandbox.db'}`);
  log(`seeding ${MESSAGES} messages for ${build.name}…`);
  const s = await startSandbox(build, ['--data', build.data, '--seed-messages', String(MESSAGES)]);
  await stop(s);
}

// 2. Interleaved rounds.
for (let round = 1; round <= ROUNDS; round++) {
  for (const build of round % 2 ? builds : [...builds].reverse()) {
    log(`round ${round}: ${build.name}`);
    const copy = join(work, `round-${round}-${build.legacy ? 'base.json' : 'sandbox.db'}`);
    copyFileSync(String(build.data), copy);
    const s = await startSandbox(build, ['--data', copy]);
    record(build, 'start over --data (ms)', s.startMs);
    record(build, 'RSS after start (MB)', rssMb(s.child.pid));

    const latencies = [];
    for (let i = 0; i < (ONLY ? 0 : build.posts); i++) {
      const t = performance.now();
      const r = await post(s.info);
      if (r.status !== 201) throw new Error(`POST answered ${r.status}`);
      latencies.push(performance.now() - t);
    }
    let listOn = s;
    if (!ONLY) {
      record(build, 'POST median (ms)', median(latencies));
      record(build, 'POST p99 (ms)', Number(pct(latencies, 99)));

      let writes = 0;
      const until = performance.now() + 5000;
      await Promise.all([0, 1, 2, 3].map(async () => {
        while (performance.now() < until) if ((await post(s.info)).status === 201) writes++;
      }));
      record(build, '4 writers (writes/s)', writes / 5);
      record(build, 'RSS after writes (MB)', rssMb(s.child.pid));

      // list --all: base as today (in-memory store, --seed-messages); this build on its --data file.
      if (build.legacy) {
        await stop(s);
        listOn = await startSandbox(build, ['--seed-messages', String(MESSAGES)]);
      }
      const list = await timeCli(build, listOn.info, ['messages', 'list', '--after', '2000-01-01', '--all', '--json']);
      record(build, 'messages list --all --json (ms)', list.ms);
      record(build, 'messages listed', list.lines);
    }

    // GET /patients?page[limit]=50 beside a bare fastify route running the same statement on the same
    // file (bench/lib/patients-ceiling.cjs), and beside json-server serving the same 50 patients.
    const headers = { authorization: `Bearer ${listOn.info.api_key}` };
    const url = `${listOn.info.base_url}/patients?page[limit]=50`;
    const sample = await fetch(url, { headers });
    const bytes = Buffer.from(await sample.arrayBuffer());
    const patients = JSON.parse(bytes.toString('utf8')).data;
    const ceiling = await serverProcess([fileURLToPath(new URL('./lib/patients-ceiling.cjs', import.meta.url)), build.legacy ? String(build.data) : copy, listOn.info.organization_id]);
    const peer = await peerMock(patients);
    /** @type {{ sandbox: number, ceiling: number, peer: number }[]} */
    const pairs = [];
    const targets = /** @type {const} */ ([
      ['sandbox', url, Number(listOn.child.pid)],
      ['ceiling', `${ceiling.address}/v1/patients?page[limit]=50`, Number(ceiling.child.pid)],
      ['peer', `${peer.address}/patients?_limit=50`, Number(peer.child.pid)],
    ]);
    /** CPU time and requests of each server over all its runs. @type {Record<string, { cpuMs: number, requests: number }>} */
    const spent = { sandbox: { cpuMs: 0, requests: 0 }, ceiling: { cpuMs: 0, requests: 0 }, peer: { cpuMs: 0, requests: 0 } };
    for (let pair = 0; pair < PAIRS; pair++) {
      /** @type {Record<string, number>} */
      const rps = {};
      for (let k = 0; k < targets.length; k++) {
        const [name, target, pid] = /** @type {(typeof targets)[number]} */ (targets[(k + pair) % targets.length]);
        const run = await cannon(target, headers, pid);
        rps[name] = run.rps;
        const total = /** @type {{ cpuMs: number, requests: number }} */ (spent[name]);
        total.cpuMs += run.cpuMs;
        total.requests += run.requests;
      }
      pairs.push({ sandbox: Number(rps.sandbox), ceiling: Number(rps.ceiling), peer: Number(rps.peer) });
    }
    const sandboxRps = median(pairs.map((p) => p.sandbox));
    const ceilingRps = median(pairs.map((p) => p.ceiling));
    const peerRps = median(pairs.map((p) => p.peer));
    const ofCeiling = median(pairs.map((p) => p.sandbox / p.ceiling));
    const ofPeer = median(pairs.map((p) => p.sandbox / p.peer));
    /** @param {string} name µs of the server's CPU per request it answered */
    const cpuPerRequest = (name) => (1000 * (spent[name]?.cpuMs ?? NaN)) / (spent[name]?.requests ?? NaN);
    // The bare route's CPU per request as a share of the sandbox's: the sandbox's efficiency.
    const cpuOfCeiling = cpuPerRequest('ceiling') / cpuPerRequest('sandbox');
    ceiling.child.kill();
    peer.child.kill();
    log(`  GET /patients ${sandboxRps.toFixed(0)} req/s, same statement on bare fastify ${ceilingRps.toFixed(0)} req/s: ${(100 * ofCeiling).toFixed(1)}% (median of ${PAIRS} paired runs); json-server ${peerRps.toFixed(0)} req/s (${bytes.length} bytes, load ${loadavg().map((x) => x.toFixed(2)).join(' ')})`);
    log(`  CPU per request: sandbox ${cpuPerRequest('sandbox').toFixed(0)} µs, bare fastify ${cpuPerRequest('ceiling').toFixed(0)} µs (the sandbox at ${(100 * cpuOfCeiling).toFixed(1)}% of its efficiency), json-server ${cpuPerRequest('peer').toFixed(0)} µs`);
    record(build, 'GET /patients req/s', sandboxRps);
    record(build, 'bare fastify req/s', ceilingRps);
    record(build, 'json-server req/s', peerRps);
    record(build, 'GET /patients / bare (%)', 100 * ofCeiling);
    // No figure (not Infinity) when a server answered nothing.
    if (Number.isFinite(cpuOfCeiling)) record(build, 'GET /patients CPU per request, bare / sandbox (%)', 100 * cpuOfCeiling);
    record(build, 'GET /patients / json-server', ofPeer);
    await stop(listOn);
    rmSync(copy, { force: true });
    for (const side of ['-wal', '-shm']) rmSync(copy + side, { force: true });
  }
}

// 3. kill -9 during a stream of writes (this build only: the base's answer is known, a leftover temp copy).
if (!ONLY) {
  const build = mine;
  const dir = mkdtempSync(join(work, 'kill-'));
  const file = join(dir, 'sandbox.db');
  copyFileSync(String(build.data), file);
  const s = await startSandbox(build, ['--data', file]);
  /** @type {string[]} */
  const confirmed = [];
  let stopped = false;
  const writers = [0, 1, 2, 3].map(async () => {
    while (!stopped) {
      try {
        const r = await post(s.info);
        if (r.status === 201 && r.id) confirmed.push(r.id);
      } catch {
        return;
      }
    }
  });
  await new Promise((r) => setTimeout(r, 2000));
  await stop(s, 'SIGKILL');
  stopped = true;
  await Promise.all(writers);
  const again = await startSandbox(build, ['--data', file]);
  let missing = 0;
  for (const id of confirmed) {
    const res = await fetch(`${again.info.base_url}/patient-messages/${id}`, { headers: { authorization: `Bearer ${again.info.api_key}` } });
    if (res.status !== 200) missing++;
    await res.arrayBuffer();
  }
  await stop(again);
  const leftovers = readdirSync(dir).filter((f) => f !== 'sandbox.db');
  record(build, 'kill -9: 2xx writes checked', confirmed.length);
  record(build, 'kill -9: missing after restart', missing);
  record(build, 'kill -9: leftover files', leftovers.length);
}

// 4. Growth (--growth, this build only; --time-scale 0): each figure at a small and a large
// size, so the ratio shows whether cost grows linearly (phones with a valid exchange: 646-000-… is
// not a number, and every import row failed, so the roster stayed empty). Sizes are the issue's; --growth-divisor N
// divides the large ones for a quicker look (then the ratio targets do not apply).
/** @param {Sandbox} s @param {number} count */
async function importPatients(s, count) {
  for (let start = 0; start < count; start += 5000) {
    const rows = Array.from({ length: Math.min(5000, count - start) }, (_, i) => ({
      first_name: `Grow${start + i}`, last_name: 'Bench', mrn: `G-${start + i}`, phone: `+16462${String(start + i).padStart(6, '0')}`,
    }));
    const res = await fetch(`${s.info.base_url}/patient-imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.info.api_key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ rows }),
    });
    const { id } = /** @type {{ id: string }} */ (await res.json());
    for (;;) {
      const st = /** @type {{ status: string }} */ (await (await fetch(`${s.info.base_url}/patient-imports/${id}`, { headers: { authorization: `Bearer ${s.info.api_key}` } })).json());
      if (st.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const DIVISOR = Number(arg('growth-divisor', '1'));
if (GROWTH) {
  const build = mine;
  for (const count of [10_000, 100_000 / DIVISOR]) {
    const s = await startSandbox(build, ['--time-scale', '0']);
    await importPatients(s, count);
    const t = await timeCli(build, s.info, ['patients', 'list', '--all', '--json']);
    record(build, `patients list --all at ${count / 1000}k (ms)`, t.ms);
    await stop(s);
  }
  for (const count of [1000, 20_000 / DIVISOR]) {
    const s = await startSandbox(build, ['--time-scale', '0']);
    await importPatients(s, count);
    const campaign = /** @type {{ id: string }} */ (await (await fetch(`${s.info.base_url}/campaigns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.info.api_key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ name: 'Growth', body: 'Time for a check-up.' }),
    })).json());
    const csv = join(work, `recipients-${count}.csv`);
    writeFileSync(csv, `mrn\n${Array.from({ length: count }, (_, i) => `G-${i}`).join('\n')}\n`);
    const t = await timeCli(build, s.info, ['campaigns', 'recipients', 'add', campaign.id, '--csv', csv]);
    record(build, `recipients add --csv by MRN at ${count / 1000}k (ms)`, t.ms);
    await stop(s);
  }
  for (const count of [1000, 50_000 / DIVISOR]) {
    const s = await startSandbox(build, ['--time-scale', '0']);
    const csv = join(work, `send-${count}.csv`);
    writeFileSync(csv, `phone,first_name\n${Array.from({ length: count }, (_, i) => `+17472${String(i).padStart(6, '0')},Pat${i}`).join('\n')}\n`);
    const before = processCpuMs(s.child.pid);
    await timeCli(build, s.info, ['send', '--csv', csv, '--template', 'Hi {first_name}, see you soon.', '--journal', join(work, `send-${count}.journal`), '--json']);
    record(build, `send --csv at ${count / 1000}k: sandbox CPU (ms)`, processCpuMs(s.child.pid) - before);
    await stop(s);
  }
}

// 5. The table.
const metrics = [...new Set([...results.keys()].map((k) => String(k.split('|')[1])))];
/** @param {Build} build @param {string} metric */
const value = (build, metric) => {
  const xs = results.get(`${build.name}|${metric}`);
  return xs ? median(xs) : undefined;
};
const base = builds.length > 1 ? builds[0] : null;
/** @param {number | undefined} v */
const fmt = (v) => (v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
console.log(`\nSandbox store, ${MESSAGES} messages, medians of ${ROUNDS} interleaved rounds (${new Date().toISOString()})\n`);
console.log(`| metric | ${builds.map((b) => b.name).join(' | ')} |`);
console.log(`| --- | ${builds.map(() => '---').join(' | ')} |`);
for (const m of metrics) console.log(`| ${m} | ${builds.map((b) => fmt(value(b, m))).join(' | ')} |`);

const listBase = base && value(base, 'messages list --all --json (ms)');
const growth10 = value(mine, 'patients list --all at 10k (ms)');
/** @param {number | undefined} big @param {number | undefined} small */
const ratio = (big, small) => (big !== undefined && small ? big / small : undefined);
const growthRun = growth10 !== undefined && DIVISOR === 1;
// [name, measured value, unit, target text, pass (undefined: not measured this run)]
const list = value(mine, 'messages list --all --json (ms)');
const killChecked = value(mine, 'kill -9: 2xx writes checked');
/** A target, or (check null) a figure printed beside them with none. @type {[string, number | undefined, string, string, ((v: number) => boolean) | null][]} */
const targets = [
  ['POST median', value(mine, 'POST median (ms)'), 'ms', '< 10 ms', (v) => v < 10],
  ['POST p99', value(mine, 'POST p99 (ms)'), 'ms', '< 50 ms', (v) => v < 50],
  ['4 writers', value(mine, '4 writers (writes/s)'), 'writes/s', '>= 300/s', (v) => v >= 300],
  ['start over --data', value(mine, 'start over --data (ms)'), 'ms', '< 3 s', (v) => v < 3000],
  ['list --all vs base in-memory', listBase && list !== undefined ? list / listBase : undefined, 'x base', '<= 1.2x', (v) => v <= 1.2],
  ['RSS with the messages', Math.max(value(mine, 'RSS after start (MB)') ?? 0, value(mine, 'RSS after writes (MB)') ?? 0), 'MB', '< 300 MB', (v) => v < 300],
  ['GET /patients vs the same statement on bare fastify', value(mine, 'GET /patients / bare (%)'), '%', '>= 70%', (v) => v >= 70],
  // Beside the rate, without a target: the server's CPU per request, which the load of the moment
  // does not move as it moves the rate (the issue's "CPU ratios hold at any load").
  ['GET /patients CPU per request: bare fastify\'s as a share of the sandbox\'s', value(mine, 'GET /patients CPU per request, bare / sandbox (%)'), '%', '', null],
  ['GET /patients vs json-server (same 50 patients)', value(mine, 'GET /patients / json-server'), 'x', '> 1x', (v) => v > 1],
  ['kill -9: 2xx writes missing or leftover files',
    killChecked !== undefined && killChecked > 0 ? Number(value(mine, 'kill -9: missing after restart')) + Number(value(mine, 'kill -9: leftover files')) : undefined, '', '0', (v) => v === 0],
  ['patients list --all 100k / 10k', growthRun ? ratio(value(mine, 'patients list --all at 100k (ms)'), growth10) : undefined, 'x', '<= 10x', (v) => v <= 10],
  ['recipients add --csv 20k / 1k', growthRun ? ratio(value(mine, 'recipients add --csv by MRN at 20k (ms)'), value(mine, 'recipients add --csv by MRN at 1k (ms)')) : undefined, 'x', '<= 25x', (v) => v <= 25],
  ['send --csv sandbox CPU 50k / 1k', growthRun ? ratio(value(mine, 'send --csv at 50k: sandbox CPU (ms)'), value(mine, 'send --csv at 1k: sandbox CPU (ms)')) : undefined, 'x', '<= 60x', (v) => v <= 60],
];
console.log(`\n${machine()}; ${envDifferences(env())}`);
for (const [name, v, unit, target, check] of targets) {
  if (!check) {
    if (v !== undefined && Number.isFinite(v)) {
      console.log(`INFO  ${name} (${fmt(v)}${unit ? ` ${unit}` : ''})`);
      result('sandbox-db', name, v, unit);
    }
    continue;
  }
  const pass = v === undefined || Number.isNaN(v) ? null : check(v);
  console.log(`${pass === null ? 'SKIP' : pass ? 'PASS' : 'FAIL'}  ${name} ${target}${pass === null ? '' : ` (${fmt(v)}${unit ? ` ${unit}` : ''})`}`);
  if (pass !== null && v !== undefined) result('sandbox-db', name, v, unit, target, pass);
}
rmSync(work, { recursive: true, force: true });
