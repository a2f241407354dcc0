// `npm test`: the whole gate, cheapest first, so a type error or a broken import
// rule fails in seconds rather than after minutes of suite:
//   1. a supported Node (on an older one, the script runs again on a fetched one);
//   2. the type check (tsc, every .ts, .js and .mjs of the project) and the import
//      rules (dependency-cruiser, .dependency-cruiser.cjs), side by side;
//   3. the suite (vitest; its global set-up builds the CLI into a private folder).
// Each step prints its time. Arguments go to `vitest run` (a test file, -t NAME);
// `--checks-only` stops after step 2.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSupportedNode } from './supported-node.mjs';

ensureSupportedNode(fileURLToPath(import.meta.url));

const checkout = fileURLToPath(new URL('..', import.meta.url)).replace(/[\\/]$/, '');
const checksOnly = process.argv.includes('--checks-only');
const args = process.argv.slice(2).filter((arg) => arg !== '--checks-only');

/**
 * Runs a Node script of a dev dependency; resolves with its exit status.
 * @param {string} label @param {string[]} argv @param {import('node:child_process').SpawnOptions} [options]
 * @returns {Promise<number>}
 */
function step(label, argv, options = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: checkout, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      process.stderr.write(`test: ${label} ${status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      resolve(status);
    });
  });
}

// Vite (under vitest) cannot load modules from a folder whose path contains `#` (it
// reads it as a URL fragment), nor can dependency-cruiser, and user folders and sync
// clients make such paths common; so from such a checkout every step runs through a
// private link without the `#`, and Node keeps module paths on the link's side of it
// (--preserve-symlinks), or it would load node_modules from the real path and meet
// the `#` again.
let root = checkout;
/** @type {string | undefined} */
let scratch;
if (checkout.includes('#')) {
  scratch = mkdtempSync(join(tmpdir(), 'msgctl-test-'));
  root = join(scratch, 'checkout');
  symlinkSync(checkout, root, 'junction');
}
const preserve = scratch ? ['--preserve-symlinks', '--preserve-symlinks-main'] : [];
const finish = (/** @type {number} */ status) => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  process.exit(status);
};

const checks = await Promise.all([
  step('type check', [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', join(root, 'tsconfig.json')]),
  step('import rules', [...preserve, join(root, 'scripts', 'check-imports.mjs'), root]),
]);
if (checks.some((status) => status !== 0)) finish(1);
if (checksOnly) finish(0);

const status = await step('suite', [...preserve, join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...(scratch ? ['--root', root] : []), ...args], {
  cwd: root,
  // vitest.config.ts keeps module paths on the link's side when this is set.
  env: scratch ? { ...process.env, MSGCTL_TEST_ROOT_LINK: root, NODE_PRESERVE_SYMLINKS: '1' } : process.env,
});
finish(status);
