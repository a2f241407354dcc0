/**
 * OAuth sessions in a store with Windows Credential Manager's limit: 2,560
 * bytes per entry, counted as UTF-16 (1,280 characters). A fake store enforces
 * it the way Windows does, so the layout is tested on any OS.
 */
import { describe, expect, it } from 'vitest';
import { SecretStoreUnavailableError, type SecretStore } from '../../src/cli/auth/secret-store.js';
import { loadStoredCredential, saveStoredCredential, type StoredOAuthTokens } from '../../src/cli/auth/credentials.js';
import { probeStore, REFRESH_ENTRY_PREFIX, SplitTokenStore } from '../../src/cli/auth/token-entries.js';
import type { ConfigStore, ProfileConfig } from '../../src/cli/config/config.js';
import { injectKeychainStore } from '../helpers/keychain-injection.js';

const WINDOWS_LIMIT_BYTES = 2560;

/** Refuses what Credential Manager refuses; `entries` is what it holds. */
class WindowsLikeStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly entries = new Map<string, string>();
  refuseAll = false;
  describe() {
    return 'OS keychain (Windows Credential Manager)';
  }
  async get(account: string) {
    return this.entries.get(account) ?? null;
  }
  async set(account: string, secret: string) {
    if (this.refuseAll) throw new SecretStoreUnavailableError('store', 'A specified logon session does not exist. (os error 1312)');
    if (Buffer.byteLength(secret, 'utf16le') > WINDOWS_LIMIT_BYTES) {
      throw new SecretStoreUnavailableError('store', `Attribute 'password' is longer than platform limit of ${WINDOWS_LIMIT_BYTES} chars`);
    }
    this.entries.set(account, secret);
  }
  async delete(account: string) {
    return this.entries.delete(account);
  }
}

/** JWT-like: three base64url parts, ~1,100 characters, as real identity providers issue. */
const jwt = (tag: string) => `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(`${tag}:`.repeat(200)).toString('base64url').slice(0, 1000)}.${'s'.repeat(86)}`;

const session: StoredOAuthTokens = {
  kind: 'oauth',
  access_token: jwt('access'),
  refresh_token: jwt('refresh'),
  expires_at: '2026-11-23T16:00:00.000Z',
  scope: 'messages.read messages.write patients.read patients.write campaigns.read campaigns.write offline_access',
  client_id: 'msgctl-cli-7f1c2a9e-4b1d-4f8e-9a51-2f7d3c0b6e11',
};

describe('OAuth session layout in the keychain', () => {
  it('a real-sized session does not fit one Windows entry (the 0.1 layout)', async () => {
    await expect(new WindowsLikeStore().set('default', JSON.stringify(session))).rejects.toThrow(/longer than platform limit/);
  });

  it('fits as separate entries, holds only secrets, and reads back whole', async () => {
    const raw = new WindowsLikeStore();
    const store = new SplitTokenStore(raw);
    await store.set('default', JSON.stringify(session));

    expect([...raw.entries.keys()].sort()).toEqual(['default', `${REFRESH_ENTRY_PREFIX}default`]);
    expect(raw.entries.get(`${REFRESH_ENTRY_PREFIX}default`)).toBe(session.refresh_token);
    const main = raw.entries.get('default')!;
    expect(main).not.toContain(session.client_id);
    expect(main).not.toContain('messages.read');
    expect(main).not.toContain(session.refresh_token);

    const back = JSON.parse((await store.get('default'))!);
    expect(back).toEqual({ kind: 'oauth', access_token: session.access_token, refresh_token: session.refresh_token, expires_at: session.expires_at });

    expect(await store.delete('default')).toBe(true);
    expect(raw.entries.size).toBe(0);
  });

  it('a refresh that drops the refresh token removes its entry', async () => {
    const raw = new WindowsLikeStore();
    const store = new SplitTokenStore(raw);
    await store.set('default', JSON.stringify(session));
    await store.set('default', JSON.stringify({ ...session, refresh_token: undefined }));
    expect(raw.entries.has(`${REFRESH_ENTRY_PREFIX}default`)).toBe(false);
    expect(JSON.parse((await store.get('default'))!).refresh_token).toBeUndefined();
  });

  it('API keys and client secrets pass through as they are', async () => {
    const raw = new WindowsLikeStore();
    const store = new SplitTokenStore(raw);
    await store.set('default', '{"kind":"api_key","api_key":"sk_test_1"}');
    await store.set('oauth-client-secret:default:app', 'cs_1');
    expect(raw.entries.get('default')).toBe('{"kind":"api_key","api_key":"sk_test_1"}');
    expect(await store.get('oauth-client-secret:default:app')).toBe('cs_1');
  });

  it('still reads the 0.1 single-entry session, and rewrites it in the new layout with client id and scopes in config', async () => {
    const raw = new WindowsLikeStore();
    // A 0.1 session small enough to have been stored (the sandbox's short tokens).
    const old = { kind: 'oauth', access_token: 'at_old', refresh_token: 'rt_old', expires_at: session.expires_at, scope: 'messages.read offline_access', client_id: 'app-1' };
    raw.entries.set('clinic', JSON.stringify(old));
    const profile: ProfileConfig = { credential: { kind: 'oauth', storage: 'keychain' } };
    const patches: Partial<ProfileConfig>[] = [];
    const config = { updateProfile: async (_name: string, patch: Partial<ProfileConfig>) => (patches.push(patch), { ...profile, ...patch }) } as unknown as ConfigStore;

    const resolved = await loadWith(raw, profile, config);
    expect(resolved?.credential).toMatchObject({ access_token: 'at_old', refresh_token: 'rt_old', client_id: 'app-1', scope: 'messages.read offline_access' });
    expect(patches).toEqual([{ client_id: 'app-1', scope: 'messages.read offline_access' }]);
    expect(JSON.parse(raw.entries.get('clinic')!)).toEqual({ kind: 'oauth', access_token: 'at_old', expires_at: session.expires_at, has_refresh: true });
    expect(raw.entries.get(`${REFRESH_ENTRY_PREFIX}clinic`)).toBe('rt_old');
  });

  it('a store that refuses fails the probe that login runs before the browser, and leaves nothing', async () => {
    const raw = new WindowsLikeStore();
    await probeStore(new SplitTokenStore(raw), 'default');
    expect(raw.entries.size).toBe(0);
    raw.refuseAll = true;
    const err = await probeStore(new SplitTokenStore(raw), 'default').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretStoreUnavailableError);
    expect((err as Error).message).toContain('Cannot store the credential in the OS keychain');
  });
});

describe('saving a session', () => {
  it('puts client id and scopes in config, only tokens in the store', async () => {
    const raw = new WindowsLikeStore();
    const patches: Partial<ProfileConfig>[] = [];
    const config = { updateProfile: async (_n: string, patch: Partial<ProfileConfig>) => (patches.push(patch), patch) } as unknown as ConfigStore;
    await saveWith(raw, config, session);
    expect(patches[0]).toMatchObject({ client_id: session.client_id, scope: session.scope, credential: { kind: 'oauth', storage: 'keychain' } });
    for (const value of raw.entries.values()) expect(Buffer.byteLength(value, 'utf16le')).toBeLessThanOrEqual(WINDOWS_LIMIT_BYTES);
  });
});

// credentials.ts opens its store through openSecretStore: route that to the fake.
const injected = injectKeychainStore();

async function loadWith(raw: SecretStore, profile: ProfileConfig, config: ConfigStore) {
  injected.store = () => new SplitTokenStore(raw);
  try {
    return await loadStoredCredential({}, 'clinic', profile, config);
  } finally {
    injected.store = undefined;
  }
}

async function saveWith(raw: SecretStore, config: ConfigStore, credential: StoredOAuthTokens) {
  injected.store = () => new SplitTokenStore(raw);
  try {
    return await saveStoredCredential({}, config, 'default', credential, 'keychain');
  } finally {
    injected.store = undefined;
  }
}
