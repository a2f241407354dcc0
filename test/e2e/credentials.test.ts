/**
 * Storing and using credentials through the built CLI: the keychain (a real
 * gnome-keyring Secret Service when MSGCTL_TEST_KEYCHAIN=1, as .ci/run sets),
 * the clear refusal when no keychain exists, the explicit 0600 file, env
 * precedence, status/token/logout — and no secret in any output.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl } from '../helpers/cli.js';
// Refusals and precedence are command logic, checked in this process; storing and using a credential
// (a real 0600 file, a real keychain) runs the binary.
import { msgctl as inThisProcess } from '../helpers/in-process.js';
import { againAfterKeyringRestart } from '../helpers/keyring.js';

const sandbox = useSandbox();
const keychainWanted = process.env.MSGCTL_TEST_KEYCHAIN === '1';

/** Without a keychain unless the extra env brings a D-Bus address (the keychain suite does). */
function envFor(extra: Record<string, string | undefined> = {}) {
  return isolatedEnv({
    MSGCTL_BASE_URL: sandbox.current.baseUrl,
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    ...extra,
  });
}

// Linux only: "no keychain" is made by pointing D-Bus at nothing, which macOS and Windows ignore.
describe.skipIf(process.platform !== 'linux')('credentials without a keychain', () => {
  it('refuses to store with the real reason and both ways out, storing nothing', async () => {
    const env = envFor();
    const key = sandbox.current.credentials.api_key;
    const r = await inThisProcess(['auth', 'set-key'], { env, input: key });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/keychain/i);
    expect(r.stderr).toMatch(/MSGCTL_API_KEY/);
    expect(r.stderr).toMatch(/--insecure-storage/);
    expect(r.stdout + r.stderr).not.toContain(key);
    expect(existsSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'credentials.json'))).toBe(false);
    const org = await inThisProcess(['org'], { env });
    expect(org.exitCode).toBe(3);
  });

  it('stores in a 0600 file only with --insecure-storage, and says so', async () => {
    const env = envFor();
    const key = sandbox.current.credentials.api_key;
    const r = await msgctl(['auth', 'set-key', '--name', 'nightly', '--insecure-storage'], { env, input: key + '\n' });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/unencrypted/);
    const file = join(env.XDG_CONFIG_HOME!, 'msgctl', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(key);

    const org = await msgctl(['org', '--verbose'], { env: { ...env, MSGCTL_BASE_URL: undefined } });
    expect(org.exitCode).toBe(0);
    expect(org.stdout).toContain('Riverside Family Clinic');
    expect(org.stderr).toMatch(/GET \/v1\/organization -> 200/);
    expect(org.stdout + org.stderr).not.toContain(key);

    const status = await msgctl(['auth', 'status', '--json'], { env });
    expect(status.exitCode).toBe(0);
    expect(jsonLines(status.stdout)[0]).toMatchObject({ credential: 'api_key', source: 'file', key_name: 'nightly' });
    expect(status.stdout).not.toContain(key);

    const token = await msgctl(['auth', 'token'], { env });
    expect(token.stdout).toBe(key + '\n');

    const logout = await msgctl(['logout'], { env });
    expect(logout.exitCode).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect((await msgctl(['org'], { env })).exitCode).toBe(3);
  });

  it('checks the key before storing it: a wrong key exits 3 and stores nothing', async () => {
    const env = envFor();
    const r = await inThisProcess(['auth', 'set-key', '--insecure-storage'], { env, input: 'msk_test_not_a_real_key' });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/invalid_token/);
    expect(existsSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'credentials.json'))).toBe(false);
  });

  it('never takes a key as an argument value', async () => {
    const r = await inThisProcess(['auth', 'set-key', sandbox.current.credentials.api_key], { env: envFor() });
    expect(r.exitCode).toBe(2);
  });

  it('lets MSGCTL_API_KEY override the stored credential', async () => {
    const env = envFor();
    await inThisProcess(['auth', 'set-key', '--insecure-storage'], { env, input: sandbox.current.credentials.other_org_api_key });
    expect((await inThisProcess(['org'], { env })).stdout).toContain('Lakeside Dental');
    const r = await inThisProcess(['org'], { env: { ...env, MSGCTL_API_KEY: sandbox.current.credentials.api_key } });
    expect(r.stdout).toContain('Riverside Family Clinic');
  });
});

describe.skipIf(!keychainWanted)('credentials in a real keychain (gnome-keyring Secret Service)', () => {
  it('stores in the keychain, uses it, and logout removes it', { timeout: 90_000 }, () =>
    againAfterKeyringRestart(async () => {
      const profile = `e2e-${randomUUID().slice(0, 8)}`;
      const env = envFor({ MSGCTL_PROFILE: profile, DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS });
      const key = sandbox.current.credentials.api_key;
      const set = await msgctl(['auth', 'set-key'], { env, input: key });
      expect(set.stderr).not.toContain(key);
      expect(set.exitCode).toBe(0);
      expect(set.stderr).toMatch(/keychain/i);
      expect(existsSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'credentials.json'))).toBe(false);
      const config = readFileSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'config.json'), 'utf8');
      expect(config).not.toContain(key);
      expect(JSON.parse(config).profiles[profile].credential).toMatchObject({ kind: 'api_key', storage: 'keychain' });

      const org = await msgctl(['org', '--json'], { env: { ...env, MSGCTL_BASE_URL: undefined } });
      expect(org.exitCode).toBe(0);
      expect(jsonLines(org.stdout)[0].name).toBe('Riverside Family Clinic');

      const status = await msgctl(['auth', 'status', '--json'], { env });
      expect(jsonLines(status.stdout)[0]).toMatchObject({ source: 'keychain' });

      expect((await msgctl(['logout'], { env })).exitCode).toBe(0);
      expect((await msgctl(['org'], { env })).exitCode).toBe(3);
    }));
});

if (!keychainWanted) {
  describe('real keychain', () => {
    it.skip('skipped: set MSGCTL_TEST_KEYCHAIN=1 and run under scripts/with-keyring.sh (CI does)', () => {});
  });
}
