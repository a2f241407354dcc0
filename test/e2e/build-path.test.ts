/**
 * The build works from a checkout whose path has a space and a `#` (user
 * folders like "C:\Users\Jane Doe", OneDrive paths): scripts/build.mjs must
 * convert between paths and file URLs properly, never by string; and `npm test`
 * must run there too (scripts/test.mjs works around vitest's `#` limitation).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

describe('building from any path', () => {
  it('builds from a folder named "with space #"', { timeout: 60_000 }, () => {
    const scratch = mkdtempSync(join(tmpdir(), 'msgctl-build-'));
    const checkout = join(scratch, 'with space #', 'msgctl');
    mkdirSync(checkout, { recursive: true });
    try {
      for (const entry of ['package.json', 'scripts', 'src', 'bin']) cpSync(join(root, entry), join(checkout, entry), { recursive: true });
      symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'junction');
      execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', 'dist'], { cwd: checkout, stdio: 'pipe' });
      expect(existsSync(join(checkout, 'dist', 'cli.js'))).toBe(true);
      expect(existsSync(join(checkout, 'dist', 'root-help.js'))).toBe(true);
      const help = execFileSync(process.execPath, [join(checkout, 'bin', 'msgctl.js'), '--help'], { encoding: 'utf8' });
      expect(help).toContain('msgctl');
      // A command that loads lazy chunks from that path too.
      const completion = execFileSync(process.execPath, [join(checkout, 'bin', 'msgctl.js'), 'completion', 'bash'], { encoding: 'utf8' });
      expect(completion).toContain('_msgctl_completion');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('runs the tests from a folder named "with space #"', { timeout: 120_000 }, () => {
    const scratch = mkdtempSync(join(tmpdir(), 'msgctl-test-path-'));
    const checkout = join(scratch, 'with space #', 'msgctl');
    mkdirSync(checkout, { recursive: true });
    try {
      for (const entry of ['package.json', 'scripts', 'src', 'bin', 'test', 'vitest.config.ts']) {
        cpSync(join(root, entry), join(checkout, entry), { recursive: true });
      }
      symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'junction');
      // The outer vitest's own variables would make the inner one think it is a worker.
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'TEST'));
      const out = execFileSync(process.execPath, ['scripts/test.mjs', 'test/unit/text-decode.test.ts'], { cwd: checkout, env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' }, encoding: 'utf8' });
      expect(out).toMatch(/Tests\s+\d+ passed/);
      expect(out).not.toMatch(/failed/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
