/**
 * `msgctl --help` and `--version` are answered by the bin from modules written
 * at build time; they must print exactly what the live command tree prints.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { binPath, isolatedEnv, msgctl } from '../helpers/cli.js';
import { msgctl as inProcess } from '../helpers/in-process.js';

describe('prebuilt root help and version', () => {
  it('prints the same root help as the command tree (`msgctl help`)', async () => {
    const fast = await msgctl(['--help'], { env: isolatedEnv() });
    const live = await msgctl(['help'], { env: isolatedEnv() });
    expect(fast.exitCode).toBe(0);
    expect(fast.stdout).toBe(live.stdout);
    expect(fast.stdout).toMatch(/^Usage: msgctl \[options\] \[command\]/);
    expect(fast.stdout).toMatch(/campaigns/);
    expect((await msgctl(['-h'], { env: isolatedEnv() })).stdout).toBe(live.stdout);
  });

  it('prints the package version', async () => {
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
    for (const flag of ['--version', '-V']) {
      const r = await msgctl([flag], { env: isolatedEnv() });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
    }
  });

  it("answers `<command> --help` from dist/help/, exactly as the live tree prints each command's help", async () => {
    const folder = join(dirname(binPath()), '..', 'dist', 'help');
    const files = readdirSync(folder);
    expect(files).toContain('patients.list.txt');
    expect(files).toContain('send.txt');
    for (const file of files) {
      const words = file.replace(/\.txt$/, '').split('.');
      // A global option first sends argv past the prebuilt texts, to the command tree.
      const live = await inProcess(['--quiet', ...words, '--help'], { env: isolatedEnv() });
      expect(live.exitCode, file).toBe(0);
      expect(readFileSync(join(folder, file), 'utf8'), file).toBe(live.stdout);
    }
    const fast = await msgctl(['patients', 'list', '--help'], { env: isolatedEnv() });
    expect(fast.exitCode).toBe(0);
    expect(fast.stdout).toBe(readFileSync(join(folder, 'patients.list.txt'), 'utf8'));
    expect((await msgctl(['send', '-h'], { env: isolatedEnv() })).stdout).toBe(readFileSync(join(folder, 'send.txt'), 'utf8'));
  });

  it('leaves words that are not a command path to the tree (its errors and suggestions)', async () => {
    const typo = await msgctl(['patients', 'lst', '--help'], { env: isolatedEnv() });
    expect(typo.stdout).toMatch(/^Usage: msgctl patients /);
    const outside = await msgctl(['../../etc/passwd', '--help'], { env: isolatedEnv() });
    expect(outside.stdout + outside.stderr).not.toMatch(/root:/);
  });
});
