/**
 * Which credential a command uses (product.md §2): MSGCTL_API_KEY, then
 * MSGCTL_TOKEN, then the profile's stored secret. Secrets are read from the
 * keychain (or the explicit 0600 file) only when a command needs one.
 */
import type { ConfigStore, ProfileConfig } from '../config/config.js';
import type { CredentialProvider } from '../api/client.js';
import type { SecretStore } from './secret-store.js';
import type { SecretWrite } from './all-or-nothing.js';
import { AuthError } from '../errors.js';

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
    // A bare string stored by hand is treated as an API key, if it could be one: one word of
    // visible ASCII. Damaged JSON (a stored session with a stray quote) is not a key: sent as
    // one, its refresh token would go to the API, and into its logs, on every request.
    const word = secret.trim();
    if (/^[\x21-\x7e]+$/.test(word) && !/[{}"]/.test(word)) return { kind: 'api_key', api_key: word };
  }
  return null;
}

export async function loadStoredCredential(
  env: Env,
  profileName: string,
  profile: ProfileConfig | undefined,
  /** When given, a session in the old single-entry layout is rewritten in today's (token-entries.ts). */
  config?: ConfigStore,
  /** Says what the user should know about their stored credentials (a file moved out of a roaming profile). */
  notify?: (message: string) => void,
): Promise<ResolvedCredential | null> {
  if (!profile?.credential) return null;
  const { openSecretStore } = await import('./secret-store.js');
  const store = openSecretStore(profile.credential.storage, env, { notify });
  const secret = await store.get(profileName);
  if (!secret) return null;
  const credential = parseStoredCredential(secret);
  if (!credential) {
    // Never echoes the text: it holds secrets.
    const { AuthError } = await import('../errors.js');
    throw new AuthError(`The credential stored for profile "${profileName}" (${store.describe()}) is damaged: msgctl cannot read it, so it sends nothing.`, [
      `Store it again: msgctl --profile ${profileName} auth set-key, or msgctl --profile ${profileName} login.`,
    ]);
  }
  if (credential.kind === 'oauth') {
    if (config && profile.credential.storage === 'keychain') await migrateSingleEntrySession(store, config, profileName, profile, secret, credential);
    // Not secrets, so kept in config.json; the old layout still carries them itself.
    credential.scope ??= profile.scope;
  }
  return { source: profile.credential.storage, credential };
}

/**
 * msgctl 0.1 kept the whole session (tokens, client id, scopes) in one keychain
 * entry, too large for Windows Credential Manager once tokens are real JWTs.
 * Read it as it is, then move the client id and scopes to config and the
 * tokens to their own entries. Best effort: a failure leaves the old entry,
 * which keeps working.
 */
async function migrateSingleEntrySession(
  store: SecretStore,
  config: ConfigStore,
  profileName: string,
  profile: ProfileConfig,
  secret: string,
  credential: StoredOAuthTokens,
): Promise<void> {
  const { isSingleEntrySession } = await import('./token-entries.js');
  if (!isSingleEntrySession(secret)) return;
  try {
    await config.updateProfile(profileName, nonSecretsOf(credential, profile));
    await store.set(profileName, JSON.stringify(credential));
  } catch {
    // Still readable as it is; the next login or refresh writes the new layout.
  }
}

/** The client id and scopes of a session, for config.json; keeps what the profile already has. */
function nonSecretsOf(credential: StoredOAuthTokens, profile: ProfileConfig | undefined): Partial<ProfileConfig> {
  const patch: Partial<ProfileConfig> = {};
  const clientId = profile?.client_id ?? credential.client_id;
  const scope = credential.scope ?? profile?.scope;
  if (clientId !== undefined) patch.client_id = clientId;
  if (scope !== undefined) patch.scope = scope;
  return patch;
}

export async function resolveCredential(
  env: Env,
  profileName: string,
  config: ConfigStore,
  notify?: (message: string) => void,
): Promise<ResolvedCredential | null> {
  return credentialFromEnv(env) ?? loadStoredCredential(env, profileName, config.profile(profileName), config, notify);
}

export interface SaveOptions {
  /** A label for an API key (`auth set-key --name`). */
  name?: string;
  /** More secrets stored with it, all or nothing (the OAuth client secret). */
  secrets?: SecretWrite[];
  /** More of the profile written with it (base URL, organization). */
  profile?: Partial<ProfileConfig>;
  /** The ways out when the store cannot keep it (all-or-nothing.ts). */
  tooLargeHints?: string[];
  /** Says what the user should know about the store (ctx.out.warn). */
  notify?: (message: string) => void;
}

/**
 * Stores the credential (and `options.secrets`) and records it in the profile, all or nothing
 * (all-or-nothing.ts): on failure the profile keeps what it had. Returns where it went.
 */
export async function saveStoredCredential(
  env: Env,
  config: ConfigStore,
  profileName: string,
  credential: StoredCredential,
  storage: 'keychain' | 'file',
  options: SaveOptions = {},
): Promise<string> {
  const [{ openSecretStore }, { storeAllOrNothing }] = await Promise.all([import('./secret-store.js'), import('./all-or-nothing.js')]);
  const store = openSecretStore(storage, env, { notify: options.notify });
  const nonSecrets = credential.kind === 'oauth' ? nonSecretsOf(credential, undefined) : {};
  await storeAllOrNothing(store, [{ account: profileName, secret: JSON.stringify(credential) }, ...(options.secrets ?? [])], {
    what: credential.kind === 'oauth' ? 'the login session' : 'the API key',
    tooLargeHints: options.tooLargeHints ?? [],
    then: () => config.updateProfile(profileName, { ...options.profile, ...nonSecrets, credential: { kind: credential.kind, storage, name: options.name } }),
  });
  return store.describe();
}

/** A provider for a fixed bearer secret; OAuth refresh wraps this (src/auth/oauth-refresh.ts). */
export function staticBearer(token: string | null): CredentialProvider {
  return { authorization: async () => (token ? `Bearer ${token}` : null) };
}

/**
 * The credential as it can be sent. Whitespace around it goes (a \r an env file saved with
 * Windows line endings leaves at the end, a space from a copy: Node refused the \r in the
 * header, which read as a network failure, exit 8, and a cron job retried a broken key as if the
 * service were down). A character no bearer token has inside it is exit 3, saying which, where.
 */
export function sendableCredential(resolved: ResolvedCredential): ResolvedCredential {
  const value = bearerValue(resolved.credential);
  const leading = /^[ \t\r\n]*/.exec(value)![0].length;
  const trimmed = value.slice(leading).replace(/[ \t\r\n]+$/, '');
  const bad = /[^\x21-\x7e]/.exec(trimmed);
  if (bad) {
    const code = bad[0].codePointAt(0)!;
    const named = { '\r': 'a carriage return (\\r)', '\n': 'a line break (\\n)', '\t': 'a tab', ' ': 'a space' }[bad[0]] ?? `the character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    const what = resolved.credential.kind === 'api_key' ? 'API key' : 'access token';
    const variable = resolved.source.startsWith('env:') ? resolved.source.slice(4) : null;
    const where = variable ? `in ${variable}` : 'stored for this profile';
    const fix = variable ? `Set ${variable} again to the ${what} exactly as it was given to you.` : 'Store it again: `msgctl auth set-key` (or `msgctl login`).';
    throw new AuthError(`The ${what} ${where} has ${named} at character ${leading + bad.index + 1}, which no ${what} holds.`, [fix]);
  }
  if (trimmed === value) return resolved;
  const credential: StoredCredential = resolved.credential.kind === 'api_key' ? { ...resolved.credential, api_key: trimmed } : { ...resolved.credential, access_token: trimmed };
  return { ...resolved, credential };
}

export function bearerValue(credential: StoredCredential): string {
  return credential.kind === 'api_key' ? credential.api_key : credential.access_token;
}
