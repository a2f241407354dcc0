// Writes docs/reference.md from the command tree: builds the CLI from the
// current source into a private folder (so a stale dist/ never leaks in), runs
// its hidden `__reference` command in-process and writes what it prints.
// `--check` writes nothing and exits 1 when docs/reference.md is out of date.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { Readable, Writable } from 'node:stream';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'docs', 'reference.md');
const check = process.argv.includes('--check');
// Inside the project, so the bundle's external packages resolve from node_modules.
const outdir = join(root, 'node_modules', '.cache', 'msgctl-reference', String(process.pid));

try {
  mkdirSync(outdir, { recursive: true });
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--outdir', outdir], { cwd: root, stdio: 'inherit' });
  const { run } = createRequire(import.meta.url)(join(outdir, 'cli.cjs'));
  let markdown = '';
  let errors = '';
  const sink = (/** @type {(text: string) => void} */ append) => new Writable({ write(chunk, _enc, done) { append(String(chunk)); done(); } });
  const code = await run(['__reference'], {
    io: { stdout: sink((text) => (markdown += text)), stderr: sink((text) => (errors += text)), stdin: Readable.from([]) },
    env: {},
  });
  if (code !== 0) {
    process.stderr.write(errors);
    throw new Error(`msgctl __reference exited ${code}`);
  }
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (check) {
    if (current !== markdown) {
      console.error('docs/reference.md is out of date: run `npm run docs:reference`.');
      process.exitCode = 1;
    } else {
      console.log('docs/reference.md is up to date.');
    }
  } else if (current === markdown) {
    console.log('docs/reference.md is already up to date.');
  } else {
    writeFileSync(target, markdown);
    console.log('Wrote docs/reference.md.');
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
// The CLI keeps a keep-alive HTTP pool; nothing here needs it, so do not wait for it.
process.exit(process.exitCode ?? 0);
