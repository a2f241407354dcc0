/**
 * V8's compile cache (bin/compile-cache.js) lives in the user's own cache folder,
 * owner-only, and a folder that cannot be made never breaks (or hangs) a command.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedEnv, msgctl } from '../helpers/cli.js';

describe('compile cache', () => {
  it('is kept under XDG_CACHE_HOME/msgctl/compile, created owner-only', async () => {
    const cache = join(mkdtempSync(join(tmpdir(), 'msgctl-cache-')), 'new', 'cache');
    const r = await msgctl(['send', '--help'], { env: isolatedEnv({ XDG_CACHE_HOME: cache }) });
    expect(r.exitCode).toBe(0);
    const folder = join(cache, 'msgctl', 'compile');
    expect(existsSync(folder)).toBe(true);
    if (process.platform !== 'win32') expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect((await msgctl(['org', '--help'], { env: isolatedEnv({ XDG_CACHE_HOME: cache }) })).exitCode).toBe(0);
    expect(readdirSync(folder).length).toBeGreaterThan(0);
  });

  it('runs without it when the folder cannot be made', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'msgctl-cache-')), 'a-file');
    writeFileSync(file, '');
    const places = [join(file, 'below')];
    // Node's own recursive mkdir never returns here; the bin must not hang on it.
    if (process.platform === 'linux') places.push('/proc/msgctl-no-such-dir');
    for (const place of places) {
      const r = await msgctl(['--version'], { env: isolatedEnv({ XDG_CACHE_HOME: place }), timeout: 15_000 });
      expect(r.exitCode, place).toBe(0);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    }
  });
});
