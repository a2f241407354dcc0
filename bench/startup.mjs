// Start-up cost of the built CLI against bare Node: median wall time of
// `msgctl --version` and `msgctl --help` vs `node -e 0`, as a ratio.
// Usage: npm run build && node bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 30);
const bin = fileURLToPath(new URL('../bin/msgctl.js', import.meta.url));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function min(xs) {
  return Math.min(...xs);
}

function time(args) {
  const samples = [];
  for (let i = 0; i < runs + 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    if (i >= 3) samples.push(ms); // the first runs warm the page cache
  }
  return { median: median(samples), min: min(samples) };
}

// Interleave the three commands so a burst of load on a shared machine hits them alike.
const bare = time(['-e', '0']);
const version = time([bin, '--version']);
const help = time([bin, '--help']);
const row = (name, t) =>
  `${name.padEnd(18)} median ${t.median.toFixed(1).padStart(6)} ms ${(t.median / bare.median).toFixed(2)}x` +
  `   min ${t.min.toFixed(1).padStart(6)} ms ${(t.min / bare.min).toFixed(2)}x`;
console.log(`start-up over ${runs} runs (target ≤ 1.25x bare node; min is the least load-sensitive figure)`);
console.log(row('node -e 0', bare));
console.log(row('msgctl --version', version));
console.log(row('msgctl --help', help));
