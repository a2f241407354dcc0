// Does a change make the sandbox serve GET /patients faster or slower? Two git revisions, each
// built in a worktree of its own (lib/revisions.mjs), each serving its own copy of one --data file
// seeded by the OLD revision (so both serve the same world), are loaded in turn by autocannon
// (10 connections, --duration seconds per run, alternating which goes first). Per pair: NEW's
// requests per second over OLD's, and NEW's CPU time per request (user + system of the sandbox
// process, from /proc: Linux only) over OLD's. Half the pairs run with OLD started first and
// half with NEW started first: with the same build on both sides, the sandbox started second
// came out ahead, an order effect this cancels. Medians of the paired ratios with a 95%
// interval (the pairs resampled), as compare-revisions.mjs reports start-up.
//
// Usage: npm run build && node bench/sandbox-revisions.mjs OLD NEW [--pairs 12] [--duration 2] [--messages 200000]
// --pairs is rounded up to a multiple of 4, so each start order and each run order comes up
// equally often. Not part of `npm run bench` (it needs two revisions). Linux only (/proc).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
// @ts-expect-error autocannon ships no types; it is called once below, with its documented options.
import autocannon from 'autocannon';
import { arg, benchEnv, load, machine, median, medianInterval, processCpuMs } from './lib/common.mjs';
import { buildRevision, removeRevision } from './lib/revisions.mjs';

const [oldRev, newRev] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(all[i - 1] ?? '').startsWith('--'));
if (!oldRev || !newRev) {
  console.error('usage: node bench/sandbox-revisions.mjs OLD NEW [--pairs 12] [--duration 2] [--messages 200000]');
  process.exit(2);
}
if (process.platform !== 'linux') {
  console.error('sandbox-revisions.mjs reads CPU times from /proc: Linux only.');
  process.exit(2);
}
const PAIRS = Math.ceil(Number(arg('pairs', '12')) / 4) * 4;
const DURATION = Number(arg('duration', '2'));
const MESSAGES = Number(arg('messages', '200000'));
const PATH = '/patients?page[limit]=50';

const home = mkdtempSync(join(tmpdir(), 'msgctl-bench-sandbox-revisions-'));
/** @type {{ root: string }[]} worktrees made so far, removed at the end whatever happens */
const made = [];
/** @type {Set<Server>} sandboxes running, stopped at the end whatever happens */
const running = new Set();
const env = benchEnv({ HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), NO_COLOR: '1' });

/** @typedef {{ child: import('node:child_process').ChildProcess, url: string, key: string }} Server */
/** @typedef {'old' | 'new'} Side */
/** @type {Side[]} */
const OLD_FIRST = ['old', 'new'];
/** @type {Side[]} */
const NEW_FIRST = ['new', 'old'];

/** @param {string} rev @param {string} name */
function revision(rev, name) {
  const built = buildRevision(rev, join(home, name));
  made.push(built);
  return built;
}

/** @param {string} bin @param {string[]} args @returns {Promise<Server>} */
async function sandbox(bin, args) {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--rate-limit', '0', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  const info = JSON.parse(String(line));
  const server = { child, url: `${info.base_url}${PATH}`, key: info.api_key };
  running.add(server);
  return server;
}

/** @param {Server} server */
async function stop(server) {
  running.delete(server);
  server.child.kill('SIGINT');
  if (server.child.exitCode === null && server.child.signalCode === null) await once(server.child, 'exit');
}

/** @param {Server} server @returns {Promise<{ rps: number, cpuUs: number }>} */
async function measureUnderLoad(server) {
  const before = processCpuMs(server.child.pid);
  const r = await autocannon({ url: server.url, headers: { authorization: `Bearer ${server.key}` }, connections: 10, duration: DURATION });
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${server.url}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts`);
  return { rps: r.requests.average, cpuUs: ((processCpuMs(server.child.pid) - before) * 1000) / r.requests.total };
}

const loadBefore = load();
/** @type {{ rps: number[], cpu: number[], old: number[], new: number[] }} */
const seen = { rps: [], cpu: [], old: [], new: [] };
/** @type {Record<Side, { bin: string, root: string, commit: string }>} */
let revisions;
try {
  revisions = { old: revision(oldRev, 'old'), new: revision(newRev, 'new') };
  const seedFile = join(home, 'seed.db');
  process.stderr.write(`seeding ${MESSAGES} messages with ${revisions.old.commit}…\n`);
  await stop(await sandbox(revisions.old.bin, ['--data', seedFile, '--seed-messages', String(MESSAGES)]));
  let pair = 0;
  for (const oldFirst of [true, false]) {
    /** @type {Partial<Record<Side, Server>>} */
    const started = {};
    for (const side of oldFirst ? OLD_FIRST : NEW_FIRST) {
      const file = join(home, `${side}.db`);
      copyFileSync(seedFile, file);
      started[side] = await sandbox(revisions[side].bin, ['--data', file]);
    }
    const servers = /** @type {Record<Side, Server>} */ (started);
    await measureUnderLoad(servers.old);
    await measureUnderLoad(servers.new);
    for (let k = 0; k < PAIRS / 2; k++, pair++) {
      /** @type {Partial<Record<Side, { rps: number, cpuUs: number }>>} */
      const r = {};
      for (const side of pair % 2 ? NEW_FIRST : OLD_FIRST) r[side] = await measureUnderLoad(servers[side]);
      const o = /** @type {{ rps: number, cpuUs: number }} */ (r.old);
      const n = /** @type {{ rps: number, cpuUs: number }} */ (r.new);
      seen.rps.push(n.rps / o.rps);
      seen.cpu.push(n.cpuUs / o.cpuUs);
      seen.old.push(o.rps);
      seen.new.push(n.rps);
      process.stderr.write(`${oldFirst ? 'old started first' : 'new started first'}: old ${o.rps.toFixed(0)}/s ${o.cpuUs.toFixed(0)} µs CPU, new ${n.rps.toFixed(0)}/s ${n.cpuUs.toFixed(0)} µs CPU\n`);
    }
    await stop(servers.old);
    await stop(servers.new);
  }
} finally {
  await Promise.all([...running].map(stop));
  for (const { root } of made) removeRevision(root);
  rmSync(home, { recursive: true, force: true });
}

const percent = (/** @type {number} */ x) => `${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(1)}%`;
const range = (/** @type {number[]} */ ratios) => medianInterval(ratios).map(percent).join(' to ');
console.log(`GET /v1${PATH}: ${revisions.old.commit} (${oldRev}) against ${revisions.new.commit} (${newRev}), ${seen.rps.length} pairs of ${DURATION} s, ${MESSAGES} messages; ${machine()} (load ${loadBefore} at the start)`);
console.log(`requests/s      old ${median(seen.old).toFixed(0)}  new ${median(seen.new).toFixed(0)}  new/old (paired) ${percent(median(seen.rps))}  95% interval ${range(seen.rps)}`);
console.log(`CPU per request new/old (paired) ${percent(median(seen.cpu))}  95% interval ${range(seen.cpu)}`);
