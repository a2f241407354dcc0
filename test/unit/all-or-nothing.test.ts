/**
 * Issue 32, item 1: a login session is stored whole or not at all. The store
 * is msgctl's own keychain store for Windows (platform faked) over a fake of
 * the keychain module that refuses what Windows Credential Manager refuses:
 * more than 2,560 bytes per entry, a secret counted as UTF-16. Every token
 * length from 1,000 to 1,600 characters (and every 7th to 3,000) either stores
 * whole or leaves the store and the profile exactly as they were.
 */
import { describe, expect, it } from 'vitest';
import { saveStoredCredential, type StoredOAuthTokens } from '../../src/cli/auth/credentials.js';
import { checkFits, CredentialTooLargeError } from '../../src/cli/auth/all-or-nothing.js';
import { KeychainSecretStore } from '../../src/cli/auth/keychain-store.js';
import { FakeCredentialManager } from '../helpers/fake-credential-manager.js';
import { REFRESH_ENTRY_PREFIX, SplitTokenStore } from '../../src/cli/auth/token-entries.js';
import type { SecretStore } from '../../src/cli/auth/secret-store.js';
import type { ConfigStore, ProfileConfig } from '../../src/cli/config/config.js';
import { injectKeychainStore } from '../helpers/keychain-injection.js';

/** A config that records the profile as saveStoredCredential leaves it. */
function fakeConfig(): { config: ConfigStore; profiles: Map<string, ProfileConfig>; failNext: () => void } {
  const profiles = new Map<string, ProfileConfig>();
  let fail = false;
  const config = {
    updateProfile: async (name: string, patch: Partial<ProfileConfig>) => {
      if (fail) {
        fail = false;
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      const next = { ...profiles.get(name), ...patch };
      profiles.set(name, next);
      return next;
    },
  } as unknown as ConfigStore;
  return { config, profiles, failNext: () => (fail = true) };
}

// credentials.ts opens its store through openSecretStore: route that to the fake.
const injected = injectKeychainStore();

const token = (tag: string, length: number) => `${tag}.${'x'.repeat(length - tag.length - 1)}`;

function session(accessLength: number, refreshLength: number): StoredOAuthTokens {
  return {
    kind: 'oauth',
    access_token: token('at', accessLength),
    refresh_token: token('rt', refreshLength),
    expires_at: '2026-11-23T16:00:00.000Z',
    scope: 'messages.read offline_access',
    client_id: 'msgctl-cli',
  };
}

const CLIENT_SECRET = { account: 'oauth-client-secret:default:msgctl-cli', secret: 'cs_test_0123456789' };

/** Saves `credential` as `msgctl login` does; returns the error, if any. */
async function login(manager: FakeCredentialManager, config: ConfigStore, credential: StoredOAuthTokens): Promise<unknown> {
  injected.store = () => manager.store();
  try {
    await saveStoredCredential({}, config, 'default', credential, 'keychain', {
      secrets: [CLIENT_SECRET],
      profile: { base_url: 'https://api.example.com/v1', client_id: 'msgctl-cli' },
      tooLargeHints: ['Keep the session in a file only you can read instead: `msgctl login --insecure-storage`.'],
    });
    return undefined;
  } catch (err) {
    return err;
  } finally {
    injected.store = undefined;
  }
}

describe('a login session in Windows Credential Manager: whole, or nothing', () => {
  // Every length up to 1,600, past every limit (checked below), and beyond it every 7th up to
  // 3,000: a step prime to 2, 3 and 4, so lengths of every remainder by those still occur.
  const lengths = [...Array.from({ length: 601 }, (_, i) => 1000 + i), ...Array.from({ length: 200 }, (_, i) => 1601 + 7 * i), 3000];
  it('for every token length from 1,000 to 1,600 characters, and every 7th to 3,000', async () => {
    expect(lengths.at(-2)).toBeLessThan(3000);
    const outcomes = { stored: 0, refused: 0 };
    let longestStored = 0;
    for (const length of lengths) {
      // Each token at this length with the other at a real-world 1,000, and both at it.
      for (const [access, refresh] of [[length, 1000], [1000, length], [length, length]] as const) {
        const manager = new FakeCredentialManager();
        const { config, profiles } = fakeConfig();
        const credential = session(access, refresh);
        const err = await login(manager, config, credential);
        if (err === undefined) {
          outcomes.stored++;
          longestStored = Math.max(longestStored, access, refresh);
          const back = JSON.parse((await manager.store().get('default'))!);
          expect(back).toEqual({ kind: 'oauth', access_token: credential.access_token, refresh_token: credential.refresh_token, expires_at: credential.expires_at });
          expect(manager.entries.get(CLIENT_SECRET.account)).toBe(CLIENT_SECRET.secret);
          expect(profiles.get('default')?.credential).toEqual({ kind: 'oauth', storage: 'keychain', name: undefined });
        } else {
          outcomes.refused++;
          expect(err, `${access}/${refresh}`).toBeInstanceOf(CredentialTooLargeError);
          // Checked before any write: nothing was written, so nothing had to be taken back.
          expect(manager.writes).toBe(0);
          expect(manager.entries.size).toBe(0);
          expect(profiles.size).toBe(0);
          const { message, hints } = err as CredentialTooLargeError;
          expect(message).toContain('Nothing was stored');
          expect(message).toMatch(access > 1000 ? /the access token \(with its expiry\) is [\d,]+ characters/ : /the refresh token is [\d,]+ characters/);
          expect(message).toContain('2,560 bytes');
          expect(hints.join('\n')).toContain('--insecure-storage');
        }
      }
    }
    // Past 1,600 characters nothing fits: the lengths tested one by one hold every limit.
    expect(longestStored).toBeLessThan(1600);
    // Both happen, and where the limit says: a refresh token of 1,280 fits, 1,281 does not.
    expect(outcomes.stored).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(await login(new FakeCredentialManager(), fakeConfig().config, session(1000, 1280))).toBeUndefined();
    expect(await login(new FakeCredentialManager(), fakeConfig().config, session(1000, 1281))).toBeInstanceOf(CredentialTooLargeError);
  }, 120_000);

  it('a write that fails half-way puts back the session that was there before', async () => {
    for (const failing of [1, 2, 3]) {
      const manager = new FakeCredentialManager();
      const { config, profiles } = fakeConfig();
      expect(await login(manager, config, session(1000, 1000))).toBeUndefined();
      const before = new Map(manager.entries);
      const profileBefore = profiles.get('default');

      manager.writes = 0;
      manager.failWriteNumber = failing;
      const err = await login(manager, config, session(1100, 1100));
      expect((err as Error).message).toContain('logon session does not exist');
      expect((err as Error).message).toContain('was put back as it was');
      expect(manager.entries).toEqual(before);
      expect(profiles.get('default')).toEqual(profileBefore);
    }
  });

  it('a first login that fails half-way leaves no entry at all', async () => {
    const manager = new FakeCredentialManager();
    manager.failWriteNumber = 2;
    const { config, profiles } = fakeConfig();
    const err = await login(manager, config, session(1000, 1000));
    expect((err as Error).message).toContain('Nothing of the login session was stored');
    expect(manager.entries.size).toBe(0);
    expect(profiles.size).toBe(0);
  });

  it('config.json failing to record it takes the entries back too', async () => {
    const manager = new FakeCredentialManager();
    const { config, profiles, failNext } = fakeConfig();
    failNext();
    const err = await login(manager, config, session(1000, 1000));
    expect((err as Error).message).toContain('ENOSPC');
    expect(manager.entries.size).toBe(0);
    expect(profiles.size).toBe(0);
  });

  it('the client secret, known before the browser opens, is checked then', () => {
    const store = new FakeCredentialManager().store();
    expect(() => checkFits(store, [CLIENT_SECRET], { what: 'the login session', tooLargeHints: [] })).not.toThrow();
    const long = { account: CLIENT_SECRET.account, secret: 'c'.repeat(1281) };
    expect(() => checkFits(store, [long], { what: 'the login session', tooLargeHints: [] })).toThrow(/the client secret is 1,281 characters/);
  });

  it('other OSes have no such limit', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      const store = new SplitTokenStore(new KeychainSecretStore({}, 1000, { platform, launch: new FakeCredentialManager().launch, readDirect: null }));
      expect(() => checkFits(store, [{ account: 'default', secret: 'k'.repeat(10_000) }], { what: 'the API key', tooLargeHints: [] })).not.toThrow();
    }
  });
});

describe('the entries a session is written as', () => {
  it('refresh token first, then the access token; none of the rest', () => {
    const store = new FakeCredentialManager().store() as SplitTokenStore;
    const writes = store.plan('default', JSON.stringify(session(1000, 1000)));
    expect(writes.map((w) => w.account)).toEqual([`${REFRESH_ENTRY_PREFIX}default`, 'default']);
  });
});
