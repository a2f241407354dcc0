/**
 * The credential provider for a stored OAuth session: it refreshes the access
 * token shortly before it expires, and once more after a 401 (the service's
 * clock is the one that counts), then writes the rotated tokens back to the
 * store they came from, so the next command starts with them.
 *
 * Refresh tokens rotate and a reused one revokes the session (docs/
 * authentication.md), so before refreshing it re-reads the store: if another
 * msgctl process already refreshed, its tokens are adopted instead.
 */
import type { CredentialProvider } from '../api/client.js';
import type { Context } from '../context.js';
import { AuthError } from '../errors.js';
import type { ResolvedCredential, StoredOAuthTokens } from './credentials.js';
import type { StorageKind } from './secret-store.js';
import { availableClientSecret } from './oauth-client-secret.js';
import { oauthEndpoints } from './oauth-endpoints.js';
import { OAuthResponseError, requestTokens } from './oauth-token-client.js';

/** Refresh when less than this is left, so a request never leaves with a token about to die. */
export const REFRESH_MARGIN_MS = 60_000;

const LOGIN_AGAIN = 'session expired: run `msgctl login` again';

export function expiresSoon(tokens: StoredOAuthTokens, nowMs = Date.now()): boolean {
  if (!tokens.expires_at) return false;
  const at = Date.parse(tokens.expires_at);
  return Number.isFinite(at) && at - nowMs < REFRESH_MARGIN_MS;
}

export function oauthCredentialProvider(ctx: Context, resolved: ResolvedCredential): CredentialProvider {
  if (resolved.credential.kind !== 'oauth') throw new Error('oauthCredentialProvider needs an OAuth credential');
  let current: StoredOAuthTokens = resolved.credential;
  const storage: StorageKind | null = resolved.source === 'keychain' || resolved.source === 'file' ? resolved.source : null;
  let inflight: Promise<void> | null = null;

  const refreshOnce = () => {
    inflight ??= refresh().finally(() => {
      inflight = null;
    });
    return inflight;
  };

  /**
   * Single flight across processes: with the profile's refresh lock held,
   * re-read the stored tokens (another msgctl may have rotated them while we
   * waited), refresh only if still needed, store, release. Two processes
   * refreshing with one refresh token would be taken for token theft and the
   * whole session revoked.
   */
  async function refresh(): Promise<void> {
    const profileName = await ctx.profileName();
    if (!storage) return refreshUnlocked(profileName);
    const [{ withFileLock }, { configDir }, { createHash }, { join }] = await Promise.all([
      import('../config/file-lock.js'),
      import('../config/paths.js'),
      import('node:crypto'),
      import('node:path'),
    ]);
    const name = createHash('sha256').update(profileName).digest('hex').slice(0, 16);
    await withFileLock(join(configDir(ctx.env), 'locks', `oauth-refresh-${name}.lock`), () => refreshUnlocked(profileName));
  }

  async function refreshUnlocked(profileName: string): Promise<void> {
    const adopted = await newerStoredTokens(profileName);
    if (adopted) {
      current = adopted;
      if (!expiresSoon(current)) return;
    }
    if (!current.refresh_token) throw new AuthError(`The access token has expired and there is no refresh token: ${LOGIN_AGAIN}.`);
    const clientId = current.client_id || (await ctx.profile())?.client_id || ctx.env.MSGCTL_CLIENT_ID;
    const clientSecret = clientId ? await availableClientSecret(ctx.env, storage, profileName, clientId) : null;
    if (!clientId || !clientSecret) {
      throw new AuthError(`Cannot refresh the session: the OAuth app's client ${clientId ? 'secret' : 'id'} is not available.`, [
        'Set MSGCTL_CLIENT_SECRET (and MSGCTL_CLIENT_ID), or run `msgctl login` again.',
      ]);
    }
    const endpoints = await oauthEndpoints(ctx);
    let tokens;
    try {
      tokens = await requestTokens(ctx, endpoints.token, { clientId, clientSecret }, {
        grant_type: 'refresh_token',
        refresh_token: current.refresh_token,
      });
    } catch (err) {
      if (err instanceof OAuthResponseError && err.error === 'invalid_grant') {
        throw new AuthError(`The OAuth session could not be renewed (${err.description ?? 'invalid_grant'}): ${LOGIN_AGAIN}.`);
      }
      throw err;
    }
    current = {
      ...current,
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token ?? current.refresh_token,
      expires_at: tokens.expires_in !== undefined ? new Date(Date.now() + tokens.expires_in * 1000).toISOString() : undefined,
      scope: tokens.scope ?? current.scope,
    };
    if (storage) {
      const { openSecretStore } = await import('./secret-store.js');
      await openSecretStore(storage, ctx.env).set(profileName, JSON.stringify(current));
    }
    ctx.verbose('OAuth access token refreshed');
  }

  /** Tokens another process stored since this one read them, if any. */
  async function newerStoredTokens(profileName: string): Promise<StoredOAuthTokens | null> {
    if (!storage) return null;
    const { openSecretStore } = await import('./secret-store.js');
    const { parseStoredCredential } = await import('./credentials.js');
    const raw = await openSecretStore(storage, ctx.env).get(profileName);
    const stored = raw ? parseStoredCredential(raw) : null;
    if (stored?.kind !== 'oauth' || stored.access_token === current.access_token) return null;
    return stored;
  }

  return {
    async authorization() {
      if (current.refresh_token && expiresSoon(current)) await refreshOnce();
      return `Bearer ${current.access_token}`;
    },
    async refresh() {
      if (!current.refresh_token) return false;
      await refreshOnce();
      return true;
    },
  };
}
