/**
 * OAuth access tokens as the API sees them. The OAuth server (routes/oauth*)
 * issues them; the auth layer only looks them up here.
 */
import type { SandboxStore } from '../store/store.js';

export interface AccessTokenRecord {
  /** The bearer token string itself. */
  id: string;
  orgId: string;
  userId: string;
  clientId: string;
  scopes: string[];
  expiresMs: number;
  revoked: boolean;
  /** The grant (authorization) this token belongs to; revoking it revokes all its tokens. */
  grantId: string;
}

export function accessTokens(store: SandboxStore) {
  return store.table<AccessTokenRecord>('oauth_access_tokens');
}

export interface OAuthClientRecord {
  /** client_id */
  id: string;
  name: string;
  secret: string;
  redirectUris: string[];
}

export function oauthClients(store: SandboxStore) {
  return store.table<OAuthClientRecord>('oauth_clients');
}
