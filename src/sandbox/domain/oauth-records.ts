/**
 * What the sandbox's OAuth server remembers between requests: sign-in
 * requests waiting on the approve page, authorization codes, grants (one per
 * approval) and refresh tokens. Access tokens live in access-tokens.ts, where
 * the API's auth layer looks them up.
 *
 * A grant ties everything issued from one approval together, so revoking it
 * (logout, a replayed code, a replayed refresh token) reaches every token.
 */
import { randomBytes } from 'node:crypto';
import type { SandboxStore } from '../store/store.js';

/** How long the approve page stays usable after GET /oauth/authorize. */
export const SIGN_IN_REQUEST_LIFETIME_MS = 30 * 60 * 1000;
/**
 * How long a grant with offline_access lasts: refresh tokens rotate, but never
 * past this, so `expires_at` on /me is a real end (docs/authentication.md).
 */
export const OFFLINE_GRANT_LIFETIME_MS = 30 * 24 * 3600 * 1000;

/** A validated /oauth/authorize request, shown as the sign-in page and decided on by POST. */
export interface SignInRequestRecord {
  /** Random; the page's hidden field. Unguessable, single use. */
  id: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge: string;
  createdMs: number;
}

export interface AuthorizationCodeRecord {
  /** The code itself. */
  id: string;
  clientId: string;
  /** Exactly as sent to /oauth/authorize: the token request must repeat it. */
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  userId: string;
  orgId: string;
  createdMs: number;
  /** Set by the first token request naming the code; any later one is a replay. */
  usedMs: number | null;
  /** The grant its tokens belong to, once exchanged. */
  grantId: string | null;
}

export interface GrantRecord {
  id: string;
  clientId: string;
  userId: string;
  orgId: string;
  scopes: string[];
  createdMs: number;
  /** When every token of the grant stops working (Profile.expires_at). */
  expiresMs: number;
  revoked: boolean;
}

export interface RefreshTokenRecord {
  /** The token itself. */
  id: string;
  grantId: string;
  clientId: string;
  createdMs: number;
  /** Set when it was exchanged for a new pair: presenting it again is a replay. */
  rotatedMs: number | null;
  revoked: boolean;
}

export function oauthTables(store: SandboxStore) {
  return {
    signInRequests: store.table<SignInRequestRecord>('oauth_sign_in_requests'),
    codes: store.table<AuthorizationCodeRecord>('oauth_codes'),
    grants: store.table<GrantRecord>('oauth_grants'),
    refreshTokens: store.table<RefreshTokenRecord>('oauth_refresh_tokens'),
  };
}

/** 256 random bits, URL-safe: codes, tokens, request ids. */
export function randomToken(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}
