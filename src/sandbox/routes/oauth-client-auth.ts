/**
 * Client authentication at /oauth/token and /oauth/revoke (RFC 6749 §2.3.1):
 * HTTP Basic with the form-encoded client id and secret (what api-spec §4.2
 * names), or, for clients that cannot set headers, `client_id` and
 * `client_secret` in the form body (client_secret_post). Never both at once.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { oauthClients, type OAuthClientRecord } from '../domain/access-tokens.js';
import { OAuthError } from '../domain/oauth-errors.js';
import { headerValue } from '../http/route.js';

export function authenticateClient(
  sb: SandboxContext,
  request: FastifyRequest,
  form: Record<string, string | undefined>,
): OAuthClientRecord {
  const basic = parseBasic(headerValue(request.headers.authorization));
  if (basic && form.client_secret !== undefined) {
    throw new OAuthError('invalid_request', 'Authenticate the client one way only: HTTP Basic or client_secret in the body.');
  }
  const id = basic?.id ?? form.client_id;
  const secret = basic?.secret ?? form.client_secret;
  if (basic && form.client_id !== undefined && form.client_id !== basic.id) {
    throw new OAuthError('invalid_client', 'client_id in the body differs from the one in the Authorization header.');
  }
  if (!id || secret === undefined) {
    throw new OAuthError('invalid_client', 'Client authentication is required: HTTP Basic with the client id and secret.');
  }
  const client = oauthClients(sb.store).get(id);
  if (!client || !sameSecret(client.secret, secret)) {
    throw new OAuthError('invalid_client', 'Unknown client or wrong client secret.');
  }
  return client;
}

function parseBasic(header: string | undefined): { id: string; secret: string } | null {
  const match = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match) {
    if (header && /^Basic\b/i.test(header)) throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.');
    return null;
  }
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.');
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.');
  }
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding. */
function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
