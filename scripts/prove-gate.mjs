// Proves that `npm test` fails fast on the three mistakes its first step exists to
// catch: a type error, an import loop and a layering break (an infrastructure
// module importing a command). Each is planted in a scratch copy of the checkout
// (node_modules linked, never copied), and the copy's `node scripts/test.mjs
// --checks-only` must fail within 60 s and name the rule. .ci/run runs this once.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = fileURLToPath(new URL('..', import.meta.url));
const LIMIT_MS = 60_000;

/** @type {{ name: string, file: string, line: string, expect: RegExp }[]} */
const plants = [
  { name: 'a type error', file: 'src/cli/util/ids.ts', line: "export const planted: number = 'not a number';", expect: /error TS2322/ },
  { name: 'an import loop', file: 'src/cli/exit-codes.ts', line: "import './errors.js';", expect: /no-cycles/ },
  { name: 'a layering break', file: 'src/cli/output/local-time.ts', line: "import '../commands/kit.js';", expect: /cli-infrastructure-never-imports-features/ },
];

let failed = false;
for (const plant of plants) {
  const scratch = mkdtempSync(join(tmpdir(), 'msgctl-gate-'));
  try {
    for (const entry of ['src', 'test', 'scripts', 'bin', 'package.json', 'tsconfig.json', 'vitest.config.ts', '.dependency-cruiser.cjs']) {
      cpSync(join(checkout, entry), join(scratch, entry), { recursive: true });
    }
    symlinkSync(join(checkout, 'node_modules'), join(scratch, 'node_modules'), 'junction');
    appendFileSync(join(scratch, plant.file), `\n${plant.line}\n`);
    const started = Date.now();
    const run = spawnSync(process.execPath, [join(scratch, 'scripts', 'test.mjs'), '--checks-only'], { cwd: scratch, encoding: 'utf8' });
    const seconds = (Date.now() - started) / 1000;
    const output = run.stdout + run.stderr;
    const ok = run.status !== 0 && plant.expect.test(output) && seconds * 1000 < LIMIT_MS;
    console.log(`prove-gate: ${plant.name} in ${plant.file}: npm test ${run.status === 0 ? 'PASSED' : 'failed'} in ${seconds.toFixed(1)} s${plant.expect.test(output) ? '' : `, without ${plant.expect}`} — ${ok ? 'ok' : 'NOT CAUGHT'}`);
    if (!ok) {
      failed = true;
      process.stdout.write(output);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
