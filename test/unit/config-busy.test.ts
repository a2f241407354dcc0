/**
 * The config writer on Windows, where renaming over config.json fails with
 * EPERM while antivirus or a sync client holds it: simulated by a rename that
 * fails a few times.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/cli/config/config.js';
import { patchFsPromises } from '../helpers/fs-promises-patch.js';

const busy = { failures: 0, code: 'EPERM' };
patchFsPromises('rename', (real) => async (from, to) => {
  if (busy.failures > 0) {
    busy.failures--;
    throw Object.assign(new Error(`${busy.code}: operation not permitted, rename '${String(from)}' -> '${String(to)}'`), { code: busy.code });
  }
  return real(from, to);
});

describe('config writer with a busy config.json', () => {
  it('retries a briefly locked file and leaves no temp file behind', async () => {
    const home = await mkdtemp(join(tmpdir(), 'msgctl-config-busy-'));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'cfg') };
    const config = await ConfigStore.load(env);
    busy.failures = 3;
    await config.updateProfile('clinic', { region: 'US' });
    expect(JSON.parse(await readFile(config.path, 'utf8')).profiles.clinic).toEqual({ region: 'US' });
    expect(await readdir(join(home, 'cfg', 'msgctl'))).toEqual(['config.json']);
  });

  it('gives up with "close the file" and no leftover *.tmp when it stays locked', async () => {
    const home = await mkdtemp(join(tmpdir(), 'msgctl-config-busy-'));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'cfg') };
    const config = await ConfigStore.load(env);
    busy.failures = 1_000;
    busy.code = 'EBUSY';
    const err = await config.updateProfile('clinic', { region: 'US' }).catch((e: unknown) => e);
    busy.failures = 0;
    expect((err as Error).message).toContain('another program has it open');
    expect(await readdir(join(home, 'cfg', 'msgctl'))).toEqual([]);
  }, 10_000);
});
