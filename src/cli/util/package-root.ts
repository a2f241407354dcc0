/**
 * Where msgctl is installed: the package folder holding bin/, dist/ and docs/
 * (the package ships all three), so help and errors can point at docs that
 * exist after `npm install -g`, and `msgctl doctor` can print the absolute
 * command a scheduler should run. Found upwards from this module: dist/cli.cjs
 * in a package, src/cli/util in a checkout.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { existsSync } = process.getBuiltinModule('node:fs');

let found: string | null | undefined;

/** The folder with package.json and bin/msgctl.js; null when there is none (a build copied elsewhere). */
export function packageRoot(): string | null {
  if (found !== undefined) return found;
  found = null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'msgctl.js'))) {
      found = dir;
      break;
    }
    dir = dirname(dir);
  }
  return found;
}

/** The installed docs folder, when the package has one. */
export function installedDocsDir(): string | null {
  const root = packageRoot();
  return root !== null && existsSync(join(root, 'docs', 'README.md')) ? join(root, 'docs') : null;
}

/** Where a doc is after `npm install -g` (or in this checkout), for messages: `docs/NAME` when there is no docs folder. */
export function docPath(name: string): string {
  const dir = installedDocsDir();
  return dir ? join(dir, name) : `docs/${name}`;
}
