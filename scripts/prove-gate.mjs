// Proves two things about `npm test` (scripts/test.mjs) that a test inside the suite
// cannot: .ci/run runs this once.
//   1. It runs from a checkout whose path holds a space and a `#` (user folders, sync
//      clients), with node_modules really inside that folder: a one-file run passes.
//   2. It fails fast on the three mistakes its first step exists to catch: a type
//      error, an import loop and a layering break (an infrastructure module importing
//      a command), each planted in turn; `--checks-only` must fail within 60 s and
//      name the rule.
// The copy lives under node_modules/.cache (the same file system, so node_modules is
// hard-linked, not copied) and is removed at the end.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = fileURLToPath(new URL('..', import.meta.url));
const LIMIT_MS = 60_000;
const cache = join(checkout, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const scratch = mkdtempSync(join(cache, 'msgctl-gate-'));
const copy = join(scratch, 'with space #', 'msgctl');

/** A copy of a folder made of hard links (symlinks copied as links), leaving out `skip`. @param {string} from @param {string} to @param {string} skip */
function hardLinkTree(from, to, skip) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    if (source === skip) continue;
    const stat = lstatSync(source);
    if (stat.isDirectory()) hardLinkTree(source, join(to, name), skip);
    else if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), join(to, name));
    else linkSync(source, join(to, name));
  }
}

/** `node scripts/test.mjs ARGS` in the copy: status, output, seconds. @param {string[]} args */
function gate(args) {
  const started = Date.now();
  // The outer test run's own variables would make an inner vitest think it is a worker.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'TEST'));
  const run = spawnSync(process.execPath, [join(copy, 'scripts', 'test.mjs'), ...args], { cwd: copy, encoding: 'utf8', env: { ...env, NO_COLOR: '1' } });
  return { status: run.status, output: run.stdout + run.stderr, seconds: (Date.now() - started) / 1000 };
}

let failed = false;
try {
  // bench/ too: it is type-checked like the rest, and a test imports its private CA helper.
  for (const entry of ['src', 'test', 'scripts', 'bin', 'bench', 'package.json', 'tsconfig.json', 'vitest.config.ts', '.dependency-cruiser.cjs']) {
    cpSync(join(checkout, entry), join(copy, entry), { recursive: true });
  }
  hardLinkTree(join(checkout, 'node_modules'), join(copy, 'node_modules'), cache);

  const clean = gate(['test/unit/text-decode.test.ts']);
  const ran = clean.status === 0 && /Tests\s+\d+ passed/.test(clean.output);
  console.log(`prove-gate: npm test from "${copy}": ${ran ? 'passed' : 'FAILED'} in ${clean.seconds.toFixed(1)} s`);
  if (!ran) {
    failed = true;
    process.stdout.write(clean.output);
  }

  /** @type {{ name: string, file: string, line: string, expect: RegExp }[]} */
  const plants = [
    { name: 'a type error', file: 'src/cli/util/ids.ts', line: "export const planted: number = 'not a number';", expect: /error TS2322/ },
    { name: 'an import loop', file: 'src/cli/exit-codes.ts', line: "import './errors.js';", expect: /no-cycles/ },
    { name: 'a layering break', file: 'src/cli/output/output.ts', line: "import '../commands/kit.js';", expect: /cli-infrastructure-never-imports-features/ },
  ];
  for (const plant of plants) {
    const file = join(copy, plant.file);
    const original = readFileSync(file, 'utf8');
    appendFileSync(file, `\n${plant.line}\n`);
    const run = gate(['--checks-only']);
    writeFileSync(file, original);
    const named = plant.expect.test(run.output);
    const caught = run.status !== 0 && named && run.seconds * 1000 < LIMIT_MS;
    console.log(`prove-gate: ${plant.name} in ${plant.file}: npm test ${run.status === 0 ? 'PASSED' : 'failed'} in ${run.seconds.toFixed(1)} s${named ? '' : `, without ${plant.expect}`} — ${caught ? 'ok' : 'NOT CAUGHT'}`);
    if (!caught) {
      failed = true;
      process.stdout.write(run.output);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
