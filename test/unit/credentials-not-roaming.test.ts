/**
 * Issue 32, item 2: on Windows the --insecure-storage file lives in this PC's
 * %LOCALAPPDATA%, never in the roaming %APPDATA% that domains copy to a
 * profile server, and a file an older msgctl left there is moved once, with a
 * notice. The platform is faked (as the suite does elsewhere); the folders are
 * real ones under a temporary directory.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSecretStore, type Env } from '../../src/cli/auth/secret-store.js';
import { insecureCredentialsFile } from '../../src/cli/config/paths.js';
import { isolatedEnv, msgctl } from '../helpers/in-process.js';

const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
let root: string;
let env: Env;
let roaming: string;
let local: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'msgctl-roaming-'));
  roaming = join(root, 'AppData', 'Roaming', 'msgctl', 'credentials.json');
  local = join(root, 'AppData', 'Local', 'msgctl', 'credentials.json');
  env = { HOME: root, USERPROFILE: root, APPDATA: join(root, 'AppData', 'Roaming'), LOCALAPPDATA: join(root, 'AppData', 'Local') };
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
});
afterEach(async () => {
  Object.defineProperty(process, 'platform', platform);
  await rm(root, { recursive: true, force: true });
});

async function writeRoaming(content: Record<string, string>) {
  await mkdir(join(root, 'AppData', 'Roaming', 'msgctl'), { recursive: true });
  await writeFile(roaming, JSON.stringify(content), { mode: 0o600 });
}

const exists = (path: string) => stat(path).then(() => true, () => false);

describe('the --insecure-storage file on Windows', () => {
  it('is written under %LOCALAPPDATA%, and nothing under the roaming %APPDATA%', async () => {
    expect(insecureCredentialsFile(env)).toBe(local);
    const store = openSecretStore('file', env);
    await store.set('clinic', 'sk_test_local');
    expect(JSON.parse(await readFile(local, 'utf8'))).toEqual({ clinic: 'sk_test_local' });
    expect(await exists(join(root, 'AppData', 'Roaming'))).toBe(false);
    expect(store.describe()).toContain('on this PC only');
  });

  it('moves a file an older msgctl left in %APPDATA% once, and says so', async () => {
    await writeRoaming({ clinic: 'sk_test_roamed', other: 'sk_test_2' });
    const notices: string[] = [];
    const store = openSecretStore('file', env, { notify: (m) => notices.push(m) });
    expect(await store.get('clinic')).toBe('sk_test_roamed');
    expect(await store.get('other')).toBe('sk_test_2');
    expect(JSON.parse(await readFile(local, 'utf8'))).toEqual({ clinic: 'sk_test_roamed', other: 'sk_test_2' });
    expect(await exists(roaming)).toBe(false);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(roaming);
    expect(notices[0]).toContain(local);
    expect(notices[0]).toMatch(/roams/);
    expect(notices[0]).not.toContain('sk_test');

    const again: string[] = [];
    expect(await openSecretStore('file', env, { notify: (m) => again.push(m) }).get('clinic')).toBe('sk_test_roamed');
    expect(again).toEqual([]);
  });

  it('a file already in %LOCALAPPDATA% wins; the roaming copy is removed', async () => {
    await openSecretStore('file', env).set('clinic', 'sk_test_new');
    await writeRoaming({ clinic: 'sk_test_old' });
    const notices: string[] = [];
    expect(await openSecretStore('file', env, { notify: (m) => notices.push(m) }).get('clinic')).toBe('sk_test_new');
    expect(await exists(roaming)).toBe(false);
    expect(notices[0]).toContain('removed');
  });

  it('a command reading the credential shows the notice', async () => {
    await writeRoaming({ clinic: 'sk_test_cmd' });
    await mkdir(join(root, 'AppData', 'Roaming', 'msgctl'), { recursive: true });
    await writeFile(
      join(root, 'AppData', 'Roaming', 'msgctl', 'config.json'),
      JSON.stringify({ profiles: { clinic: { base_url: 'http://127.0.0.1:9/v1', credential: { kind: 'api_key', storage: 'file' } } } }),
    );
    const r = await msgctl(['--profile', 'clinic', 'auth', 'token'], { env: { ...isolatedEnv(), ...env, XDG_CONFIG_HOME: undefined, XDG_STATE_HOME: undefined } });
    expect(r.stderr).toMatch(/moved the --insecure-storage credentials from .*Roaming.* to .*Local/);
    expect(r.stdout.trim()).toBe('sk_test_cmd');
    expect(await exists(local)).toBe(true);
  });
});
