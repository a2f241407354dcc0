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

function time(args) {
  const samples = [];
  for (let i = 0; i < runs + 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    if (i >= 3) samples.push(ms); // the first runs warm the page cache
  }
  return median(samples);
}

const bare = time(['-e', '0']);
const version = time([bin, '--version']);
const help = time([bin, '--help']);
const row = (name, ms) => `${name.padEnd(18)} ${ms.toFixed(1).padStart(7)} ms   ${(ms / bare).toFixed(2)}x`;
console.log(`start-up, median of ${runs} runs (target ≤ 1.25x bare node)`);
console.log(row('node -e 0', bare));
console.log(row('msgctl --version', version));
console.log(row('msgctl --help', help));
