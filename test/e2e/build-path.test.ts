/**
 * The build works from a checkout whose path has a space and a `#` (user
 * folders like "C:\Users\Jane Doe", OneDrive paths): scripts/build.mjs must
 * convert between paths and file URLs properly, never by string; and `npm test`
 * must run there too (scripts/test.mjs works around vitest's `#` limitation).
 */
import { execFileSync, spawn } from 'node:child_process';
import { execa } from 'execa';
import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

describe('building from any path', () => {
  it('builds from a folder named "with space #"', { timeout: 60_000 }, async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'msgctl-build-'));
    const checkout = join(scratch, 'with space #', 'msgctl');
    mkdirSync(checkout, { recursive: true });
    try {
      for (const entry of ['package.json', 'scripts', 'src', 'bin']) cpSync(join(root, entry), join(checkout, entry), { recursive: true });
      symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'junction');
      execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', 'dist'], { cwd: checkout, stdio: 'pipe' });
      expect(existsSync(join(checkout, 'dist', 'cli.cjs'))).toBe(true);
      expect(existsSync(join(checkout, 'dist', 'root-help.js'))).toBe(true);
      const help = execFileSync(process.execPath, [join(checkout, 'bin', 'msgctl.js'), '--help'], { encoding: 'utf8' });
      expect(help).toContain('msgctl');
      // A command that runs the bundle, and one that loads the sandbox's own bundle, from that path too.
      const completion = execFileSync(process.execPath, [join(checkout, 'bin', 'msgctl.js'), 'completion', 'bash'], { encoding: 'utf8' });
      expect(completion).toContain('_msgctl_completion');
      expect(JSON.parse(await firstLineOf(process.execPath, [join(checkout, 'bin', 'msgctl.js'), 'sandbox', '--port', '0', '--json']))).toHaveProperty('base_url');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('runs the tests from a folder named "with space #", node_modules inside it', { timeout: 120_000 }, async () => {
    // Under the checkout's own node_modules/.cache: the same file system, so node_modules can be
    // hard-linked rather than copied. It must really be inside the `#` folder: Node loads modules
    // from their real path, which is what broke vitest there (a symlinked node_modules hid it).
    const scratch = mkdtempSync(join(root, 'node_modules', '.cache', 'msgctl-test-path-'));
    const checkout = join(scratch, 'with space #', 'msgctl');
    mkdirSync(checkout, { recursive: true });
    try {
      for (const entry of ['package.json', 'scripts', 'src', 'bin', 'test', 'vitest.config.ts', 'tsconfig.json', '.dependency-cruiser.cjs']) {
        cpSync(join(root, entry), join(checkout, entry), { recursive: true });
      }
      hardLinkTree(join(root, 'node_modules'), join(checkout, 'node_modules'), join(root, 'node_modules', '.cache'));
      // The outer vitest's own variables would make the inner one think it is a worker.
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'TEST'));
      // Not execFileSync: a worker blocked for the whole nested run cannot answer vitest (onTaskUpdate timeouts).
      const run = await execa(process.execPath, ['scripts/test.mjs', 'test/unit/text-decode.test.ts'], { cwd: checkout, env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' }, extendEnv: false, reject: false, all: true });
      const out = String(run.all);
      expect(run.exitCode, out).toBe(0);
      expect(out).toMatch(/Tests\s+\d+ passed/);
      expect(out).not.toMatch(/failed/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

/** A copy of a folder made of hard links (symlinks copied as links), leaving out `skip`. */
function hardLinkTree(from: string, to: string, skip: string): void {
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

/** Starts a long-running command, resolves with the first line it prints, and stops it. */
function firstLineOf(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end >= 0) {
        child.kill('SIGTERM');
        resolve(out.slice(0, end));
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing a line: ${err}`)));
  });
}
