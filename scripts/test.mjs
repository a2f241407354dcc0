// `npm test` after the build: runs vitest. Vite (under vitest) cannot load
// modules from a folder whose path contains `#` (it reads it as a URL
// fragment), and user folders and sync clients make such paths common; so from
// such a checkout the tests run through a private symlink without the `#`.
// Arguments are passed on to `vitest run` (e.g. a test file).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = fileURLToPath(new URL('..', import.meta.url)).replace(/[\\/]$/, '');
let root = checkout;
let scratch;
if (checkout.includes('#')) {
  scratch = mkdtempSync(join(tmpdir(), 'msgctl-test-'));
  root = join(scratch, 'checkout');
  symlinkSync(checkout, root, 'junction');
}
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = [vitest, 'run', ...(scratch ? ['--root', root] : []), ...process.argv.slice(2)];
const result = spawnSync(process.execPath, args, {
  cwd: root,
  stdio: 'inherit',
  // vitest.config.ts keeps module paths on the link's side when this is set.
  env: scratch ? { ...process.env, MSGCTL_TEST_ROOT_LINK: root } : process.env,
});
if (scratch) rmSync(scratch, { recursive: true, force: true });
process.exit(result.status ?? 1);
