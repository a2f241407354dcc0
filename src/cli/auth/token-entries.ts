/**
 * How an OAuth session is laid out in the OS keychain: only secrets, one per
 * entry, so each fits every OS store. Windows Credential Manager takes at most
 * 2,560 bytes per entry (UTF-16: 1,280 characters); a whole session as one JSON
 * (two JWT-style tokens, client id, scopes) does not fit, and it failed after
 * the user had approved in the browser, or on refresh after the server had
 * already rotated the refresh token (the session was lost).
 *
 *   <profile>                        {"kind":"oauth","access_token":…,"expires_at":…,"has_refresh":true}
 *   oauth-refresh-token:<profile>    the refresh token, as is
 *
 * The client id and scopes are not secrets: they live in config.json (the
 * caller, credentials.ts, puts them there). API keys and other secrets pass
 * through unchanged. The old single-JSON entry is still read as it is, and
 * credentials.ts rewrites it in this layout when it reads one.
 *
 * This wraps a SecretStore, so every caller keeps calling get/set/delete with
 * the whole credential JSON.
 */
import type { SecretStore } from './secret-store-types.js';

export const REFRESH_ENTRY_PREFIX = 'oauth-refresh-token:';

/** One entry as the store holds it; null: no entry. */
export interface EntryWrite {
  account: string;
  value: string | null;
}

/** Entries that are not a profile's main credential (client secrets, refresh tokens). */
function isAuxiliary(account: string): boolean {
  return account.startsWith('oauth-');
}

interface OAuthBlob {
  kind: 'oauth';
  access_token: string;
  refresh_token?: string;
  expires_at?: string;
  has_refresh?: boolean;
  [key: string]: unknown;
}

function oauthBlob(secret: string): OAuthBlob | undefined {
  try {
    const value = JSON.parse(secret) as OAuthBlob;
    return value && value.kind === 'oauth' && typeof value.access_token === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export class SplitTokenStore implements SecretStore {
  constructor(readonly inner: SecretStore) {}

  get kind() {
    return this.inner.kind;
  }

  describe(): string {
    return this.inner.describe();
  }

  async get(account: string): Promise<string | null> {
    const main = await this.inner.get(account);
    if (main === null || isAuxiliary(account)) return main;
    const blob = oauthBlob(main);
    // An API key, or the old layout with everything in one entry: as stored.
    if (!blob || blob.refresh_token !== undefined || !blob.has_refresh) return blob ? withoutMarker(blob) : main;
    const refresh = await this.inner.get(REFRESH_ENTRY_PREFIX + account);
    return withoutMarker(refresh ? { ...blob, refresh_token: refresh } : blob);
  }

  async set(account: string, secret: string): Promise<void> {
    for (const write of this.plan(account, secret)) {
      if (write.value === null) await this.inner.delete(write.account);
      else await this.inner.set(write.account, write.value);
    }
  }

  /** The entries `set(account, secret)` writes, in order; a null value removes the entry. */
  plan(account: string, secret: string): EntryWrite[] {
    const blob = isAuxiliary(account) ? undefined : oauthBlob(secret);
    if (!blob) return [{ account, value: secret }];
    const main: OAuthBlob = { kind: 'oauth', access_token: blob.access_token };
    if (blob.expires_at !== undefined) main.expires_at = blob.expires_at;
    if (blob.refresh_token) main.has_refresh = true;
    // The refresh token first: if the second write fails, the old access token is still
    // paired with the newest refresh token, and the next command refreshes again. The
    // other order would keep a rotated-away refresh token, and using it ends the session.
    return [
      { account: REFRESH_ENTRY_PREFIX + account, value: blob.refresh_token || null },
      { account, value: JSON.stringify(main) },
    ];
  }

  async delete(account: string): Promise<boolean> {
    if (!isAuxiliary(account)) await this.inner.delete(REFRESH_ENTRY_PREFIX + account);
    return this.inner.delete(account);
  }
}

function withoutMarker(blob: OAuthBlob): string {
  const { has_refresh: _marker, ...rest } = blob;
  return JSON.stringify(rest);
}

/** True for a session stored the old way: tokens, client id and scopes in one entry. */
export function isSingleEntrySession(secret: string): boolean {
  const blob = oauthBlob(secret);
  return Boolean(blob && (blob.client_id !== undefined || blob.scope !== undefined));
}

/** About the size of one real JWT-style token; what each entry must be able to hold. */
export const PROBE_CHARS = 1200;

/**
 * Writes and removes a token-sized entry, so a store that refuses (a locked
 * keychain, a Windows session with no Credential Manager, a size limit) fails
 * `msgctl login` before the browser opens, not after the user has approved.
 */
export async function probeStore(store: SecretStore, profileName: string): Promise<void> {
  const account = `oauth-probe:${profileName}`;
  await store.set(account, 'x'.repeat(PROBE_CHARS));
  await store.delete(account);
}
