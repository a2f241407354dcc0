/**
 * What `npm pack` ships, from a clean checkout (no dist/ yet): prepack must
 * build the code, and only what users run may go in — no source maps (they
 * carry the whole TypeScript source), sources, tests, fixtures or tooling.
 */
import { execFileSync } from 'node:child_process';
import { execa } from 'execa';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'msgctl-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the tracked files only, as a fresh clone would have them. */
function cleanCheckout(): string {
  const dir = join(scratch, 'checkout');
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree, not yet committed
    cpSync(join(root, file), join(dir, file), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'junction');
  return dir;
}

describe('npm pack', () => {
  it('builds on prepack and ships dist, bin, docs and examples, and nothing else', async () => {
    const dir = cleanCheckout();
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    // Not execFileSync: a worker blocked for the whole build cannot answer vitest (onTaskUpdate timeouts).
    const { stdout: out } = await execa('npm', ['pack', '--json', '--pack-destination', scratch], {
      cwd: dir,
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    const [result] = JSON.parse(out.slice(out.indexOf('['))) as { files: { path: string }[] }[];
    const files = result!.files.map((f) => f.path);

    for (const needed of ['bin/msgctl.js', 'dist/cli.cjs', 'dist/command-line.json', 'bin/code-cache.js', 'bin/own-path.js', 'dist/sandbox/entry.js', 'dist/version.js', 'dist/root-help.js', 'dist/help-render.js', 'dist/man/msgctl.1', 'docs/README.md', 'README.md', 'package.json']) {
      expect(files, needed).toContain(needed);
    }
    expect(files.some((f) => f.startsWith('docs/'))).toBe(true);
    expect(files.some((f) => f.startsWith('examples/'))).toBe(true);
    const unexpected = files.filter(
      (f) => f.endsWith('.map') || f.endsWith('.ts') || /^(src|test|bench|scripts|\.ci)\//.test(f) || f.includes('fixtures'),
    );
    expect(unexpected).toEqual([]);
    expect(files.every((f) => /^(bin|dist|docs|examples)\//.test(f) || ['README.md', 'package.json', 'LICENSE'].includes(f))).toBe(true);
    // npm installs the man page from package.json's "man", so `man msgctl` finds msgctl(1).
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { man: string[] };
    expect(pkg.man).toEqual(['./dist/man/msgctl.1']);
  }, 120_000);
});
