/**
 * Who is calling: an organization API key (K) or an org admin's OAuth token (O).
 */
import type { SandboxContext } from '../context.js';
import { accessTokens, oauthClients } from './access-tokens.js';

export interface Principal {
  kind: 'api_key' | 'oauth';
  /** Key id or access token id: scopes idempotency keys and rate limits. */
  id: string;
  orgId: string;
  scopes: Set<string>;
  /** Shown as the sender: the key's name or the admin's name. */
  name: string;
  /** sender.id on messages: the key id or the user id. */
  senderId: string;
  userId: string | null;
  app: { clientId: string; name: string } | null;
  defaultPhoneNumberId: string | null;
  expiresMs: number | null;
}

const KEYS_KEPT = 64;
const keyPrincipals = new WeakMap<SandboxContext, { generation: number; byToken: Map<string, Principal> }>();

/**
 * An API key's principal depends on stored data only (keys do not expire), so it is kept
 * while the store's change generation holds: any write, or any row handed out for a possible
 * in-place change, drops every kept principal. Saves an SQL read and a parse per request.
 * OAuth tokens expire by the clock and are always looked up.
 */
export function findPrincipal(sb: SandboxContext, token: string): Principal | null {
  const generation = sb.store.changeGeneration();
  let known = keyPrincipals.get(sb);
  if (!known || known.generation !== generation) keyPrincipals.set(sb, (known = { generation, byToken: new Map() }));
  const cached = known.byToken.get(token);
  if (cached) return cached;
  const principal = findStoredPrincipal(sb, token);
  if (principal?.kind === 'api_key') {
    if (known.byToken.size >= KEYS_KEPT) known.byToken.clear();
    known.byToken.set(token, principal);
  }
  return principal;
}

function findStoredPrincipal(sb: SandboxContext, token: string): Principal | null {
  const key = sb.db.apiKeys.where('token = ?', [token]).find((k) => !k.deletedAt);
  if (key) {
    return {
      kind: 'api_key',
      id: key.id,
      orgId: key.orgId,
      scopes: new Set(key.scopes),
      name: key.name,
      senderId: key.id,
      userId: null,
      app: null,
      defaultPhoneNumberId: key.defaultPhoneNumberId,
      expiresMs: null,
    };
  }
  const access = accessTokens(sb.store).get(token);
  if (!access || access.revoked || access.expiresMs <= sb.clock.now()) return null;
  const user = sb.db.users.get(access.userId);
  if (!user) return null;
  const client = oauthClients(sb.store).get(access.clientId);
  return {
    kind: 'oauth',
    id: access.id,
    orgId: access.orgId,
    scopes: new Set(access.scopes),
    name: user.name,
    senderId: user.id,
    userId: user.id,
    app: client ? { clientId: client.id, name: client.name } : null,
    defaultPhoneNumberId: user.defaultPhoneNumberId,
    expiresMs: access.expiresMs,
  };
}
