/**
 * Round trip against a real Secret Service. Opt-in: CI runs
 *   MSGCTL_TEST_KEYCHAIN=1 scripts/with-keyring.sh npx vitest run
 * and then any failure here fails the build; nothing is skipped silently.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openSecretStore } from '../../src/cli/auth/secret-store.js';
import { keychainService } from '../../src/cli/auth/keychain-store.js';
import { againAfterKeyringRestart } from '../helpers/keyring.js';

const enabled = process.env.MSGCTL_TEST_KEYCHAIN === '1';
const HOW_TO_ENABLE = 'set MSGCTL_TEST_KEYCHAIN=1 and run under scripts/with-keyring.sh';

/**
 * The keychain store, opened with `terminal: false`: run from a terminal, the shared worker threads
 * would otherwise get the 60 s a person has to answer a dialog, and a stuck Secret Service would
 * show as a test timeout rather than the keychain's own error after 3 s.
 */
const openKeychain = () => openSecretStore('keychain', process.env, { terminal: false });

/** Object paths of Secret Service items for msgctl/<profile>, asked over D-Bus directly. */
async function secretServiceItems(profile: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('dbus-send', [
    '--session',
    '--print-reply',
    '--dest=org.freedesktop.secrets',
    '/org/freedesktop/secrets',
    'org.freedesktop.Secret.Service.SearchItems',
    `dict:string:string:service,${keychainService(process.env)},username,${profile}`,
  ]);
  return [...stdout.matchAll(/object path "([^"]+)"/g)].map((m) => m[1] ?? '');
}

describe.runIf(!enabled)('OS keychain round trip', () => {
  it('real Secret Service round trip', (ctx) => {
    ctx.skip(HOW_TO_ENABLE);
  });
});

describe.runIf(enabled)('OS keychain round trip (real Secret Service)', () => {
  it('uses the test-only service name, never the real msgctl entries', () => {
    expect(keychainService(process.env)).toBe('msgctl-test');
  });

  it('has a session bus to talk to', () => {
    expect(process.env.DBUS_SESSION_BUS_ADDRESS, 'no session D-Bus: run under scripts/with-keyring.sh').toBeTruthy();
  });

  it('stores, reads, overwrites and deletes a secret', { timeout: 90_000 }, () =>
    againAfterKeyringRestart(async () => {
      const store = openKeychain();
      const profile = `test-${randomUUID()}`;
      const tokenSet = JSON.stringify({ access_token: 'at-é✓', refresh_token: 'rt\nline2', expires_at: 1_900_000_000 });

      expect(store.kind).toBe('keychain');
      expect(store.describe()).toBe('OS keychain (Secret Service)');
      expect(await store.get(profile)).toBeNull();

      try {
        await store.set(profile, 'sk_test_first');
        expect(await store.get(profile)).toBe('sk_test_first');

        await store.set(profile, tokenSet);
        expect(await store.get(profile)).toBe(tokenSet);

        expect(await store.delete(profile)).toBe(true);
        expect(await store.get(profile)).toBeNull();
        expect(await store.delete(profile)).toBe(false);
      } finally {
        // Nothing left behind in the keychain, even when an expectation failed.
        await store.delete(profile).catch(() => undefined);
      }
    }));

  it('puts the secret in the Secret Service itself, one item per profile', { timeout: 90_000 }, () =>
    againAfterKeyringRestart(async () => {
      const store = openKeychain();
      const profile = `test-${randomUUID()}`;
      await store.set(profile, 'sk_test_where');
      try {
        expect(await secretServiceItems(profile)).toHaveLength(1);
        expect(await store.get(`${profile}-other`)).toBeNull();
      } finally {
        await store.delete(profile);
      }
      expect(await secretServiceItems(profile)).toEqual([]);
    }));

  it('keeps an OAuth session as two items (access, refresh), and removes both', { timeout: 90_000 }, () =>
    againAfterKeyringRestart(async () => {
      const store = openKeychain();
      const profile = `test-${randomUUID()}`;
      const session = { kind: 'oauth', access_token: 'a'.repeat(1100), refresh_token: 'r'.repeat(1100), expires_at: '2030-01-01T00:00:00.000Z' };
      await store.set(profile, JSON.stringify(session));
      try {
        expect(await secretServiceItems(profile)).toHaveLength(1);
        expect(await secretServiceItems(`oauth-refresh-token:${profile}`)).toHaveLength(1);
        expect(JSON.parse((await store.get(profile))!)).toEqual(session);
      } finally {
        await store.delete(profile);
      }
      expect(await secretServiceItems(profile)).toEqual([]);
      expect(await secretServiceItems(`oauth-refresh-token:${profile}`)).toEqual([]);
    }));
});
