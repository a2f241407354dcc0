/**
 * The authorization endpoint's rules (RFC 6749 §4.1, RFC 7636, api-spec §5.2),
 * apart from HTML: checking a /oauth/authorize request, and deciding on the
 * approve page's answer.
 *
 * Errors come in two kinds. When the client or its redirect_uri cannot be
 * trusted, the user must not be sent anywhere (that would make the server an
 * open redirector), so the browser gets an error page. Every other error goes
 * back to the client on its redirect_uri with `error` and the `state`.
 */
import type { SandboxContext } from '../context.js';
import { SCOPES } from '../../contract/api.js';
import { oauthClients, type OAuthClientRecord } from './access-tokens.js';
import { isRegisteredRedirectUri } from './oauth-redirect-uri.js';
import { isValidS256Challenge } from '../../contract/pkce.js';
import { LIMITS } from '../../contract/api.js';
import {
  oauthTables,
  randomToken,
  SIGN_IN_REQUEST_LIFETIME_MS,
  type SignInRequestRecord,
} from './oauth-records.js';
import type { UserRecord } from './records.js';

type Query = Record<string, string | string[] | undefined>;

/** Shown as a page; never redirected. */
export interface PageOutcome {
  kind: 'page';
  status: 400 | 401 | 403;
  title: string;
  message: string;
}

export interface RedirectOutcome {
  kind: 'redirect';
  location: string;
}

export type AuthorizeOutcome = PageOutcome | RedirectOutcome | { kind: 'sign-in'; request: SignInRequestRecord; client: OAuthClientRecord };

const KNOWN_SCOPES = new Set<string>(SCOPES);

export function startAuthorization(sb: SandboxContext, query: Query): AuthorizeOutcome {
  const single = (name: string) => {
    const v = query[name];
    return Array.isArray(v) ? null : v; // null: repeated, which RFC 6749 §3.1 forbids
  };
  const clientId = single('client_id');
  const client = clientId ? oauthClients(sb.store).get(clientId) : undefined;
  if (!client) {
    return page(400, 'Unknown app', clientId
      ? `No app is registered with client id "${clientId}". Check the client id the app was configured with.`
      : 'The request names no app (client_id is missing or repeated).');
  }
  const redirectUri = single('redirect_uri');
  if (!redirectUri || !isRegisteredRedirectUri(client.redirectUris, redirectUri)) {
    return page(400, 'Invalid redirect address', redirectUri
      ? `"${redirectUri}" is not a redirect address registered for ${client.name}, so the sandbox will not send you there.`
      : 'The request has no redirect_uri (or repeats it), so the sandbox cannot send you back to the app.');
  }
  const state = single('state');
  const fail = (error: string, description: string) =>
    redirectWith(redirectUri, { error, error_description: description, state: state ?? undefined });

  for (const name of ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method']) {
    if (single(name) === null) return fail('invalid_request', `${name} is repeated.`);
  }
  const responseType = single('response_type');
  if (!responseType) return fail('invalid_request', 'response_type is required (response_type=code).');
  if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (!state) return fail('invalid_request', 'state is required: the app must check it on the way back.');
  const challenge = single('code_challenge');
  if (!challenge) return fail('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.');
  if (single('code_challenge_method') !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  }
  if (!isValidS256Challenge(challenge)) {
    return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).');
  }
  const scopes = (single('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0) return fail('invalid_scope', 'scope is required (space-separated, e.g. "messages.read offline_access").');
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
  if (unknown.length) return fail('invalid_scope', `Unknown scope: ${unknown.join(', ')}.`);

  const request = oauthTables(sb.store).signInRequests.put({
    id: randomToken(),
    clientId: client.id,
    redirectUri,
    scopes: [...new Set(scopes)],
    state,
    codeChallenge: challenge,
    createdMs: sb.clock.now(),
  });
  sb.store.changed();
  return { kind: 'sign-in', request, client };
}

export interface Decision {
  requestId: string;
  decision: string;
  email: string;
  password: string;
}

export type DecisionOutcome =
  | PageOutcome
  | RedirectOutcome
  /** Wrong email or password: show the sign-in page again with a message. */
  | { kind: 'retry'; request: SignInRequestRecord; client: OAuthClientRecord; message: string; email: string }
  /** Signed in, but this user may not approve; the request stays open for someone who may. */
  | { kind: 'refused'; request: SignInRequestRecord; client: OAuthClientRecord; title: string; message: string };

export function decide(sb: SandboxContext, d: Decision): DecisionOutcome {
  const { signInRequests, codes } = oauthTables(sb.store);
  const request = signInRequests.get(d.requestId);
  const client = request ? oauthClients(sb.store).get(request.clientId) : undefined;
  if (!request || !client || sb.clock.now() - request.createdMs > SIGN_IN_REQUEST_LIFETIME_MS) {
    return page(400, 'This sign-in link has expired', 'It was already used, or it is too old. Go back to the app and start again.');
  }
  if (d.decision === 'deny') {
    signInRequests.delete(request.id);
    sb.store.changed();
    return redirectWith(request.redirectUri, {
      error: 'access_denied',
      error_description: 'The user denied the request.',
      state: request.state,
    });
  }
  if (d.decision !== 'approve') return page(400, 'Unexpected answer', 'Use the Approve or Deny button.');

  const user = findUser(sb, d.email, d.password);
  if (!user) return { kind: 'retry', request, client, email: d.email, message: 'That email and password do not match an account.' };
  const org = sb.db.orgs.get(user.orgId);
  if (user.role !== 'admin') {
    return {
      kind: 'refused', request, client,
      title: 'Only an org admin can connect apps',
      message: `${user.name} is staff at ${org?.name ?? 'this organization'}. Ask an org admin to sign in and approve ${client.name}.`,
    };
  }
  if (!org || !org.approvedClientIds.includes(client.id)) {
    return {
      kind: 'refused', request, client,
      title: `${client.name} is not approved for ${org?.name ?? 'your organization'}`,
      message: `An org admin must approve ${client.name} for the organization (in the product settings) before it can connect.`,
    };
  }
  signInRequests.delete(request.id);
  const code = codes.put({
    id: randomToken(),
    clientId: client.id,
    redirectUri: request.redirectUri,
    scopes: request.scopes,
    codeChallenge: request.codeChallenge,
    userId: user.id,
    orgId: user.orgId,
    createdMs: sb.clock.now(),
    usedMs: null,
    grantId: null,
  });
  sb.store.changed();
  return redirectWith(request.redirectUri, { code: code.id, state: request.state });
}

export function codeExpired(sb: SandboxContext, createdMs: number): boolean {
  return sb.clock.now() - createdMs >= LIMITS.authCodeLifetimeMs;
}

function findUser(sb: SandboxContext, email: string, password: string): UserRecord | undefined {
  const wanted = email.trim().toLowerCase();
  if (!wanted) return undefined;
  return sb.db.users.find((u) => u.email.toLowerCase() === wanted && u.password === password);
}

function page(status: PageOutcome['status'], title: string, message: string): PageOutcome {
  return { kind: 'page', status, title, message };
}

/** Adds parameters to the client's redirect URI, keeping any query it already has. */
function redirectWith(redirectUri: string, params: Record<string, string | undefined>): RedirectOutcome {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return { kind: 'redirect', location: url.toString() };
}
