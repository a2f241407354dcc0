/**
 * Which credential a command uses (product.md §2): MSGCTL_API_KEY, then
 * MSGCTL_TOKEN, then the profile's stored secret. Secrets are read from the
 * keychain (or the explicit 0600 file) only when a command needs one.
 */
import type { ConfigStore, ProfileConfig } from '../config/config.js';
import type { CredentialProvider } from '../api/client.js';

export interface StoredApiKey {
  kind: 'api_key';
  api_key: string;
}

export interface StoredOAuthTokens {
  kind: 'oauth';
  access_token: string;
  refresh_token?: string;
  /** RFC 3339 expiry of the access token. */
  expires_at?: string;
  scope?: string;
  client_id?: string;
}

export type StoredCredential = StoredApiKey | StoredOAuthTokens;

export type CredentialSource = 'env:MSGCTL_API_KEY' | 'env:MSGCTL_TOKEN' | 'keychain' | 'file';

export interface ResolvedCredential {
  source: CredentialSource;
  credential: StoredCredential;
}

type Env = Record<string, string | undefined>;

export function credentialFromEnv(env: Env): ResolvedCredential | null {
  if (env.MSGCTL_API_KEY) {
    return { source: 'env:MSGCTL_API_KEY', credential: { kind: 'api_key', api_key: env.MSGCTL_API_KEY } };
  }
  if (env.MSGCTL_TOKEN) {
    return { source: 'env:MSGCTL_TOKEN', credential: { kind: 'oauth', access_token: env.MSGCTL_TOKEN } };
  }
  return null;
}

export function parseStoredCredential(secret: string): StoredCredential | null {
  try {
    const parsed = JSON.parse(secret) as StoredCredential;
    if (parsed.kind === 'api_key' && typeof parsed.api_key === 'string') return parsed;
    if (parsed.kind === 'oauth' && typeof parsed.access_token === 'string') return parsed;
  } catch {
    // A bare string stored by hand is treated as an API key.
    if (secret.trim()) return { kind: 'api_key', api_key: secret.trim() };
  }
  return null;
}

export async function loadStoredCredential(
  env: Env,
  profileName: string,
  profile: ProfileConfig | undefined,
): Promise<ResolvedCredential | null> {
  if (!profile?.credential) return null;
  const { openSecretStore } = await import('./secret-store.js');
  const store = openSecretStore(profile.credential.storage, env);
  const secret = await store.get(profileName);
  if (!secret) return null;
  const credential = parseStoredCredential(secret);
  return credential ? { source: profile.credential.storage, credential } : null;
}

export async function resolveCredential(
  env: Env,
  profileName: string,
  config: ConfigStore,
): Promise<ResolvedCredential | null> {
  return credentialFromEnv(env) ?? loadStoredCredential(env, profileName, config.profile(profileName));
}

export async function saveStoredCredential(
  env: Env,
  config: ConfigStore,
  profileName: string,
  credential: StoredCredential,
  storage: 'keychain' | 'file',
  name?: string,
): Promise<string> {
  const { openSecretStore } = await import('./secret-store.js');
  const store = openSecretStore(storage, env);
  await store.set(profileName, JSON.stringify(credential));
  await config.updateProfile(profileName, { credential: { kind: credential.kind, storage, name } });
  return store.describe();
}

/** A provider for a fixed bearer secret; OAuth refresh wraps this (src/auth/oauth-refresh.ts). */
export function staticBearer(token: string | null): CredentialProvider {
  return { authorization: async () => (token ? `Bearer ${token}` : null) };
}

export function bearerValue(credential: StoredCredential): string {
  return credential.kind === 'api_key' ? credential.api_key : credential.access_token;
}
