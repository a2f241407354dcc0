// What every bench shares: statistics, a fresh sandbox, and the result lines
// bench/run-all.mjs collects (format in bench/README.md).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BIN = process.env.MSGCTL_BENCH_BIN ?? fileURLToPath(new URL('../../bin/msgctl.js', import.meta.url));

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const min = (xs) => Math.min(...xs);

export function arg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
}

/** `msgctl sandbox` on a free port; resolves once it prints its JSON line. */
export async function startSandbox(extra = []) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', '--rate-limit', '0', ...extra], {
    stdio: ['ignore', 'pipe', 'ignore'], // its "Sandbox stopped." would break the tables
  });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
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

export const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/**
 * One result line for bench/run-all.mjs: `RESULT {"bench","name","value","unit","target","pass"}`.
 * `target` is text ("<= 1.5x"); `pass` is true, false, or null for a figure without a target.
 */
export function result(bench, name, value, unit, target = null, pass = null) {
  console.log(`RESULT ${JSON.stringify({ bench, name, value: Math.round(value * 1000) / 1000, unit, target, pass })}`);
}

export const verdict = (pass) => (pass === null ? '' : pass ? 'PASS' : 'FAIL');
