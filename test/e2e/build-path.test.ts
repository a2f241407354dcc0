/**
 * The build works from a checkout whose path has a space and a `#` (user
 * folders like "C:\Users\Jane Doe", OneDrive paths): scripts/build.mjs must
 * convert between paths and file URLs properly, never by string. That `npm test`
 * runs there too is proven by scripts/prove-gate.mjs (run by .ci/run), which needs
 * a whole copy of the checkout and its node_modules.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
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
});

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
