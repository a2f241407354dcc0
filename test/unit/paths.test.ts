/**
 * Where msgctl keeps its files, per OS, as a pure function of (env, platform,
 * path implementation): the Windows rules run on any OS through path.win32.
 */
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateLegacyConfig } from '../../src/cli/config/migrate.js';
import { locate } from '../../src/cli/config/paths.js';

const win = { platform: 'win32' as const, path: path.win32, home: 'C:\\Users\\Jane Doe' };
const mac = { platform: 'darwin' as const, path: path.posix, home: '/Users/jane' };
const linux = { platform: 'linux' as const, path: path.posix, home: '/home/jane' };

const WIN_ENV = {
  USERPROFILE: 'C:\\Users\\Jane Doe',
  APPDATA: 'C:\\Users\\Jane Doe\\AppData\\Roaming',
  LOCALAPPDATA: 'C:\\Users\\Jane Doe\\AppData\\Local',
};

describe('locate', () => {
  it.each([
    ['Windows: %APPDATA% for config, %LOCALAPPDATA% for state', WIN_ENV, win,
      'C:\\Users\\Jane Doe\\AppData\\Roaming\\msgctl', 'C:\\Users\\Jane Doe\\AppData\\Local\\msgctl'],
    ['Windows: HOME on a network drive does not win over the profile', { ...WIN_ENV, HOME: 'H:\\' }, win,
      'C:\\Users\\Jane Doe\\AppData\\Roaming\\msgctl', 'C:\\Users\\Jane Doe\\AppData\\Local\\msgctl'],
    ['Windows: a drive-letter XDG_CONFIG_HOME is honoured', { ...WIN_ENV, XDG_CONFIG_HOME: 'D:\\cfg', XDG_STATE_HOME: 'D:\\state' }, win,
      'D:\\cfg\\msgctl', 'D:\\state\\msgctl'],
    ['Windows: a relative XDG value is ignored', { ...WIN_ENV, XDG_CONFIG_HOME: 'cfg' }, win,
      'C:\\Users\\Jane Doe\\AppData\\Roaming\\msgctl', 'C:\\Users\\Jane Doe\\AppData\\Local\\msgctl'],
    ['Windows: no APPDATA (a stripped service env) falls back to the profile folder', {}, win,
      'C:\\Users\\Jane Doe\\AppData\\Roaming\\msgctl', 'C:\\Users\\Jane Doe\\AppData\\Local\\msgctl'],
    ['macOS: as before, ~/.config and ~/.local/state', { HOME: '/Users/jane' }, mac,
      '/Users/jane/.config/msgctl', '/Users/jane/.local/state/msgctl'],
    ['Linux: XDG variables', { HOME: '/home/jane', XDG_CONFIG_HOME: '/cfg', XDG_STATE_HOME: '/st' }, linux, '/cfg/msgctl', '/st/msgctl'],
    ['Linux: relative XDG ignored, HOME used', { HOME: '/home/j2', XDG_CONFIG_HOME: 'rel' }, linux,
      '/home/j2/.config/msgctl', '/home/j2/.local/state/msgctl'],
    ['Linux: no HOME, the account home', {}, linux, '/home/jane/.config/msgctl', '/home/jane/.local/state/msgctl'],
  ])('%s', (_name, env, where, configDir, stateDir) => {
    expect(locate(env, where)).toMatchObject({ configDir, stateDir });
  });

  it('keeps the --insecure-storage file out of the roaming profile on Windows, beside config elsewhere (issue 32)', () => {
    expect(locate(WIN_ENV, win)).toMatchObject({
      secretsDir: 'C:\\Users\\Jane Doe\\AppData\\Local\\msgctl',
      roamingSecretsDir: 'C:\\Users\\Jane Doe\\AppData\\Roaming\\msgctl',
    });
    expect(locate({}, win).secretsDir).toBe('C:\\Users\\Jane Doe\\AppData\\Local\\msgctl');
    // A folder the user named is where they want it, and nothing roams from there.
    expect(locate({ ...WIN_ENV, XDG_CONFIG_HOME: 'D:\\cfg' }, win)).toMatchObject({ secretsDir: 'D:\\cfg\\msgctl', roamingSecretsDir: undefined });
    expect(locate({ HOME: '/Users/jane' }, mac).secretsDir).toBe('/Users/jane/.config/msgctl');
    expect(locate({ HOME: '/Users/jane' }, mac).roamingSecretsDir).toBeUndefined();
    expect(locate({ HOME: '/home/jane' }, linux).secretsDir).toBe('/home/jane/.config/msgctl');
  });

  it('names the 0.1 location on Windows only, to read it once', () => {
    expect(locate(WIN_ENV, win).legacyConfigDir).toBe('C:\\Users\\Jane Doe\\.config\\msgctl');
    expect(locate({ ...WIN_ENV, XDG_CONFIG_HOME: 'D:\\cfg' }, win).legacyConfigDir).toBeUndefined();
    expect(locate({ HOME: '/Users/jane' }, mac).legacyConfigDir).toBeUndefined();
  });
});

describe('migrateLegacyConfig', () => {
  it('copies config.json and credentials.json from the old folder once, and never overwrites', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'msgctl-migrate-'));
    const where = { configDir: path.join(root, 'new', 'msgctl'), stateDir: path.join(root, 'state'), secretsDir: path.join(root, 'local', 'msgctl'), legacyConfigDir: path.join(root, 'old') };
    await mkdir(where.legacyConfigDir, { recursive: true });
    await writeFile(path.join(where.legacyConfigDir, 'config.json'), '{"profiles":{"clinic":{}}}\n');
    await writeFile(path.join(where.legacyConfigDir, 'credentials.json'), '{"clinic":"sk_test_x"}\n');

    expect(await migrateLegacyConfig({}, where)).toBe(true);
    expect(await readFile(path.join(where.configDir, 'config.json'), 'utf8')).toContain('clinic');
    // The secrets to this PC's own folder, not the roaming one (issue 32).
    expect(await readFile(path.join(where.secretsDir, 'credentials.json'), 'utf8')).toContain('sk_test_x');

    await writeFile(path.join(where.legacyConfigDir, 'config.json'), '{"profiles":{"stale":{}}}\n');
    expect(await migrateLegacyConfig({}, where)).toBe(false);
    expect(await readFile(path.join(where.configDir, 'config.json'), 'utf8')).not.toContain('stale');
  });

  it('does nothing without an old config', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'msgctl-migrate-'));
    const where = { configDir: path.join(root, 'new'), stateDir: root, secretsDir: path.join(root, 'new'), legacyConfigDir: path.join(root, 'none') };
    expect(await migrateLegacyConfig({}, where)).toBe(false);
  });
});
