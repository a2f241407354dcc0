/**
 * The token endpoint's grants and the revocation endpoint (RFC 6749 §4.1.3,
 * §6; RFC 7636 §4.6; RFC 7009), for an already authenticated client.
 *
 * Choices (docs/authentication.md):
 * - An authorization code is burnt by the first token request that names it,
 *   successful or not. Presenting it again fails and revokes every token
 *   issued from it (RFC 6749 §4.1.2).
 * - Refresh tokens rotate: each use returns a new one and retires the old.
 *   Presenting a retired refresh token means two parties hold it, so the
 *   whole grant is revoked (OAuth 2.0 Security BCP §4.14.2).
 * - A refresh token is issued only when offline_access was granted; the grant
 *   then lasts 30 days from approval. Without it, the grant ends with its
 *   access token.
 */
import type { SandboxContext } from '../context.js';
import { LIMITS } from '../../contract/api.js';
import { accessTokens, type OAuthClientRecord } from './access-tokens.js';
import { OAuthError } from './oauth-errors.js';
import { codeExpired } from './oauth-authorize.js';
import { oauthTables, randomToken, OFFLINE_GRANT_LIFETIME_MS, type GrantRecord } from './oauth-records.js';
import { verifierMatches } from '../../contract/pkce.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

type Form = Record<string, string | undefined>;

export function exchangeAuthorizationCode(sb: SandboxContext, client: OAuthClientRecord, form: Form): TokenResponse {
  const { codes, grants } = oauthTables(sb.store);
  const codeValue = required(form, 'code');
  const redirectUri = required(form, 'redirect_uri');
  const verifier = required(form, 'code_verifier');
  const code = codes.get(codeValue);
  // Another client's code is treated as unknown: it says nothing about the code to the caller.
  if (!code || code.clientId !== client.id) throw new OAuthError('invalid_grant', 'The authorization code is invalid.');
  if (code.usedMs !== null) {
    if (code.grantId) revokeGrant(sb, code.grantId);
    throw new OAuthError('invalid_grant', 'The authorization code was already used; tokens issued from it are revoked.');
  }
  code.usedMs = sb.clock.now();
  sb.store.changed();
  if (codeExpired(sb, code.createdMs)) {
    throw new OAuthError('invalid_grant', 'The authorization code has expired (codes last 10 minutes).');
  }
  if (redirectUri !== code.redirectUri) {
    throw new OAuthError('invalid_grant', 'redirect_uri does not match the one sent to /oauth/authorize.');
  }
  if (!verifierMatches(verifier, code.codeChallenge)) {
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256).');
  }
  const now = sb.clock.now();
  const offline = code.scopes.includes('offline_access');
  const grant = grants.put({
    id: sb.newId(),
    clientId: client.id,
    userId: code.userId,
    orgId: code.orgId,
    scopes: code.scopes,
    createdMs: now,
    expiresMs: now + (offline ? OFFLINE_GRANT_LIFETIME_MS : LIMITS.accessTokenLifetimeSeconds * 1000),
    revoked: false,
  });
  code.grantId = grant.id;
  return issueTokens(sb, grant, grant.scopes);
}

export function refreshAccessToken(sb: SandboxContext, client: OAuthClientRecord, form: Form): TokenResponse {
  const { refreshTokens, grants } = oauthTables(sb.store);
  const presented = refreshTokens.get(required(form, 'refresh_token'));
  if (!presented || presented.clientId !== client.id) throw new OAuthError('invalid_grant', 'The refresh token is invalid.');
  const grant = grants.get(presented.grantId);
  if (presented.rotatedMs !== null) {
    revokeGrant(sb, presented.grantId);
    throw new OAuthError('invalid_grant', 'The refresh token was already used; the grant is revoked. Sign in again.');
  }
  if (!grant || grant.revoked || presented.revoked) throw new OAuthError('invalid_grant', 'The refresh token has been revoked.');
  if (grant.expiresMs <= sb.clock.now()) throw new OAuthError('invalid_grant', 'The grant has expired. Sign in again.');

  // A refresh may narrow the scope of the new access token, never widen it (RFC 6749 §6).
  let scopes = grant.scopes;
  if (form.scope !== undefined) {
    scopes = [...new Set(form.scope.split(' ').filter(Boolean))];
    const extra = scopes.filter((s) => !grant.scopes.includes(s));
    if (scopes.length === 0 || extra.length) {
      throw new OAuthError('invalid_scope', `The scope must be a subset of the granted scopes (${grant.scopes.join(' ')}).`);
    }
  }
  presented.rotatedMs = sb.clock.now();
  return issueTokens(sb, grant, scopes);
}

function issueTokens(sb: SandboxContext, grant: GrantRecord, scopes: string[]): TokenResponse {
  const now = sb.clock.now();
  const expiresMs = Math.min(now + LIMITS.accessTokenLifetimeSeconds * 1000, grant.expiresMs);
  const access = accessTokens(sb.store).put({
    id: randomToken('mat_test_'),
    orgId: grant.orgId,
    userId: grant.userId,
    clientId: grant.clientId,
    scopes,
    expiresMs,
    revoked: false,
    grantId: grant.id,
  });
  const response: TokenResponse = {
    access_token: access.id,
    token_type: 'Bearer',
    expires_in: Math.max(0, Math.round((expiresMs - now) / 1000)),
    scope: scopes.join(' '),
  };
  if (grant.scopes.includes('offline_access')) {
    const refresh = oauthTables(sb.store).refreshTokens.put({
      id: randomToken('mrt_test_'),
      grantId: grant.id,
      clientId: grant.clientId,
      createdMs: now,
      rotatedMs: null,
      revoked: false,
    });
    response.refresh_token = refresh.id;
  }
  sb.store.changed();
  return response;
}

/**
 * RFC 7009: a refresh token takes its whole grant with it (every access token
 * too); an access token only itself. Unknown tokens, and tokens of another
 * client, are ignored: the answer is the same 200 either way, so the endpoint
 * tells nobody whether a token exists.
 */
export function revokeToken(sb: SandboxContext, client: OAuthClientRecord, token: string, hint: string | undefined): void {
  const { refreshTokens } = oauthTables(sb.store);
  const lookups = hint === 'access_token' ? [revokeAccess, revokeRefresh] : [revokeRefresh, revokeAccess];
  for (const lookup of lookups) if (lookup()) return;

  function revokeRefresh(): boolean {
    const refresh = refreshTokens.get(token);
    if (!refresh) return false;
    if (refresh.clientId === client.id) revokeGrant(sb, refresh.grantId);
    return true;
  }
  function revokeAccess(): boolean {
    const access = accessTokens(sb.store).get(token);
    if (!access) return false;
    if (access.clientId === client.id) {
      access.revoked = true;
      sb.store.changed();
    }
    return true;
  }
}

export function revokeGrant(sb: SandboxContext, grantId: string): void {
  const { grants, refreshTokens } = oauthTables(sb.store);
  const grant = grants.get(grantId);
  if (grant) grant.revoked = true;
  for (const r of refreshTokens.values()) if (r.grantId === grantId) r.revoked = true;
  for (const a of accessTokens(sb.store).values()) if (a.grantId === grantId) a.revoked = true;
  sb.store.changed();
}

/** The grant behind an access token (for /me's expires_at). */
export function grantOfAccessToken(sb: SandboxContext, token: string): GrantRecord | undefined {
  const access = accessTokens(sb.store).get(token);
  return access ? oauthTables(sb.store).grants.get(access.grantId) : undefined;
}

function required(form: Form, name: string): string {
  const value = form[name];
  if (!value) throw new OAuthError('invalid_request', `${name} is required.`);
  return value;
}
