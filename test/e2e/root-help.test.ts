/**
 * `msgctl --help` and `--version` are answered by the bin from modules written
 * at build time; they must print exactly what the live command tree prints.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isolatedEnv, msgctl } from '../helpers/cli.js';

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
});
