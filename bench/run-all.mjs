// `npm run bench`: runs every bench/*.mjs in turn and prints one table of their
// results. A bench reports through lines of the form
//   RESULT {"bench":…,"name":…,"value":…,"unit":…,"target":…,"pass":true|false|null}
// on stdout (bench/lib/common.mjs `result()`; see bench/README.md); everything
// else it prints is passed through as its own detail. Sizes and rounds are kept
// small enough for a 2-core machine; run a bench by hand for bigger ones.
// Every bench strips NODE_EXTRA_CA_CERTS, NODE_OPTIONS, proxies and the user's MSGCTL_*
// variables from what it times and prints the differences beside its table (lib/common.mjs).
// Exit status 1 when any target fails. POSIX only, like the benches (bench/README.md).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { load } from './lib/common.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Arguments run-all gives a bench (bounded run time); a bench not listed runs with its defaults.
 * Every paired figure is a median of at least 15 rounds or pairs (issue 30): start-up 20 rounds,
 * mechanisms 15, batch-send 15 pairs, stream-messages 15 pairs per size and output, and sandbox-db's
 * GET /patients 15 paired runs in each of its 3 rounds (its other figures: 3 rounds).
 * @type {Record<string, string[]>}
 */
const ARGS = {
  'startup.mjs': ['--rounds', '20'],
  'mechanisms.mjs': ['--rounds', '15'],
  'batch-send.mjs': ['--rows', '5000', '--rounds', '15', '--memory-rows', '1000,100000'],
  'stream-messages.mjs': ['20000', '100000'],
  'import.mjs': ['--repeat', '3', '10000', '100000'],
  'sandbox-db.mjs': ['--messages', '200000', '--rounds', '3', '--posts', '200'],
};
/** @type {Record<string, Record<string, string>>} */
const RUNS_ENV = { 'stream-messages.mjs': { MSGCTL_BENCH_RUNS: '15' } };

const only = process.argv.slice(2);
const benches = readdirSync(here)
  // compare-revisions.mjs and sandbox-revisions.mjs compare two git revisions given by hand
  // (bench/README.md), not this build.
  .filter((f) => f.endsWith('.mjs') && !['run-all.mjs', 'compare-revisions.mjs', 'sandbox-revisions.mjs'].includes(f))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

/** The start-up bench also times a keychain credential when a private Secret Service can be started. */
const keyring = spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon'], { stdio: 'ignore' }).status === 0;

/** @typedef {{ bench: string, name: string, value: number | null, unit: string, target: string | null, pass: boolean | null }} Result */
/** @type {Result[]} */
const results = [];
const startedAll = performance.now();
if (!keyring) console.log('note: no dbus-run-session or gnome-keyring-daemon here, so the keychain start-up row is not measured (apt-get install dbus gnome-keyring)');
for (const bench of benches) {
  let command = [process.execPath, `${here}${bench}`, ...(ARGS[bench] ?? [])];
  if (bench === 'startup.mjs' && keyring) command = [`${root}scripts/with-keyring.sh`, ...command, '--keychain'];
  console.log(`\n=== ${bench} (${command.slice(1).join(' ').replaceAll(root, '')}) load ${load()}`);
  const started = performance.now();
  const child = spawn(/** @type {string} */ (command[0]), command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...RUNS_ENV[bench] } });
  /** @type {Result[]} */
  const got = [];
  for await (const line of createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) })) {
    if (line.startsWith('RESULT ')) got.push(JSON.parse(line.slice(7)));
    else console.log(line);
  }
  const code = await new Promise((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - started) / 1000;
  if (got.length === 0) got.push({ bench: bench.replace(/\.mjs$/, ''), name: `(no results; exit ${code})`, value: null, unit: '', target: 'runs', pass: false });
  results.push(...got);
  console.log(`=== ${bench}: ${seconds.toFixed(0)} s, exit ${code}`);
}

console.log(`\nAll benches (Node ${process.version}, load ${load()}, ${((performance.now() - startedAll) / 60000).toFixed(1)} min; each bench's table above says its environment):`);
/** @type {[string, string, string, string, string][]} */
const rows = results.map((r) => [r.bench, r.name, r.value === null ? '-' : `${r.value} ${r.unit}`, r.target ?? '', r.pass === null ? '' : r.pass ? 'PASS' : 'FAIL']);
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => String(r[i]).length), 5));
const [w0, w1, w2, w3] = /** @type {[number, number, number, number]} */ (widths);
for (const r of rows) console.log(`${r[0].padEnd(w0)}  ${r[1].padEnd(w1)}  ${r[2].padStart(w2)}  ${r[3].padEnd(w3)}  ${r[4]}`);
process.exitCode = results.some((r) => r.pass === false) ? 1 : 0;
