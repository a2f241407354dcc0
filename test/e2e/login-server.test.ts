/**
 * The sandbox's OAuth server over plain HTTP: authorize validation and the
 * approve page's rules, the token endpoint's grants and errors, rotation,
 * replay detection and revocation.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import {
  approvedCode, authorizeUrl, basicAuth, CLIENT_ID, decideViaHttp, issueTokens, oauthPost, pkce, requestIdFrom,
} from '../helpers/login-harness.js';

const sandbox = useSandbox();

function authorizeParams(overrides: Record<string, string | null> = {}) {
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: 'http://127.0.0.1:53211/callback',
    scope: 'messages.read offline_access',
    state: 'st-123',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete params[k];
    else params[k] = v;
  }
  return authorizeUrl(sandbox.current, params);
}

async function apiStatus(token: string) {
  return (await fetch(`${sandbox.current.baseUrl}/organization`, { headers: { authorization: `Bearer ${token}` } })).status;
}

describe('GET /oauth/authorize', () => {
  it('shows a sign-in page naming the app and the scopes, for a loopback redirect on any port', async () => {
    const r = await fetch(authorizeParams(), { redirect: 'manual' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const html = await r.text();
    expect(html).toContain('msgctl CLI');
    expect(html).toContain('messages.read');
    expect(html).toContain('offline_access');
    expect(html).toMatch(/type="password"/);
    expect(html).toMatch(/value="approve"/);
    expect(html).toMatch(/value="deny"/);
    expect(requestIdFrom(html).length).toBeGreaterThanOrEqual(40);
  });

  it.each([
    ['an unknown client', { client_id: 'nobody' }, /No app is registered/],
    ['a missing client_id', { client_id: null }, /names no app/],
    ['an unregistered redirect_uri', { redirect_uri: 'http://evil.example/callback' }, /not a redirect address registered/],
    ['a different loopback path', { redirect_uri: 'http://127.0.0.1:5000/other' }, /not a redirect address registered/],
    ['an https loopback redirect', { redirect_uri: 'https://127.0.0.1:5000/callback' }, /not a redirect address registered/],
    ['a missing redirect_uri', { redirect_uri: null }, /no redirect_uri/],
  ])('answers %s with an error page, never a redirect', async (_name, overrides, message) => {
    const r = await fetch(authorizeParams(overrides), { redirect: 'manual' });
    expect(r.status).toBe(400);
    expect(r.headers.get('location')).toBeNull();
    expect(await r.text()).toMatch(message);
  });

  it.each([
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: null }, 'invalid_request'],
    ['an unknown scope', { scope: 'messages.read admin.everything' }, 'invalid_scope'],
    ['no scope', { scope: null }, 'invalid_scope'],
    ['no code_challenge', { code_challenge: null }, 'invalid_request'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a malformed challenge', { code_challenge: 'short' }, 'invalid_request'],
  ])('redirects %s back with error and state', async (_name, overrides, error) => {
    const r = await fetch(authorizeParams(overrides), { redirect: 'manual' });
    expect(r.status).toBe(302);
    const back = new URL(r.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('http://127.0.0.1:53211/callback');
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('requires state', async () => {
    const r = await fetch(authorizeParams({ state: null }), { redirect: 'manual' });
    expect(new URL(r.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('the approve page', () => {
  it('Approve redirects with a code and the state', async () => {
    const r = await decideViaHttp(authorizeParams(), { decision: 'approve' });
    expect(r.status).toBe(302);
    const back = new URL(r.location!);
    expect(back.port).toBe('53211');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('Deny redirects with access_denied and the state', async () => {
    const r = await decideViaHttp(authorizeParams(), { decision: 'deny', email: '', password: '' });
    expect(r.status).toBe(302);
    const back = new URL(r.location!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-123');
  });

  it('refuses a staff user with a 403 page and no redirect', async () => {
    const r = await decideViaHttp(authorizeParams(), { decision: 'approve', email: 'sam@riverside.example' });
    expect(r.status).toBe(403);
    expect(r.location).toBeNull();
    expect(r.html).toMatch(/Only an org admin can connect apps/);
    expect(r.html).toMatch(/Sam Staff is staff at Riverside Family Clinic/);
  });

  it('refuses an app the organization has not approved', async () => {
    const url = authorizeParams({ client_id: 'unapproved-app' });
    const r = await decideViaHttp(url, { decision: 'approve' });
    expect(r.status).toBe(403);
    expect(r.html).toMatch(/Unapproved App is not approved for Riverside Family Clinic/);
  });

  it('asks again after a wrong password, and the same request still works', async () => {
    const page = await (await fetch(authorizeParams())).text();
    const requestId = requestIdFrom(page);
    const post = (password: string) =>
      fetch(`${sandbox.current.origin}/oauth/authorize/decision`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: requestId, email: 'dana@riverside.example', password, decision: 'approve' }),
      });
    const wrong = await post('nope');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/do not match/);
    const right = await post('sandbox');
    expect(right.status).toBe(302);
    // Single use: the same request id cannot approve twice.
    const again = await post('sandbox');
    expect(again.status).toBe(400);
    expect(await again.text()).toMatch(/expired/);
  });
});

describe('POST /oauth/token: authorization_code', () => {
  it('issues a bearer token the API accepts, with a refresh token for offline_access, never cached', async () => {
    const { code, verifier, redirectUri } = await approvedCode(sandbox.current);
    const r = await oauthPost(sandbox.current, '/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(r.body.scope.split(' ').sort()).toEqual(['messages.read', 'messages.write', 'offline_access', 'patients.read', 'patients.write']);
    expect(typeof r.body.refresh_token).toBe('string');
    expect(await apiStatus(r.body.access_token)).toBe(200);
  });

  it('gives no refresh token without offline_access', async () => {
    const tokens = await issueTokens(sandbox.current, 'messages.read');
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('messages.read');
  });

  it('accepts client_secret_post too', async () => {
    const { code, verifier, redirectUri } = await approvedCode(sandbox.current);
    const r = await oauthPost(sandbox.current, '/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier,
      client_id: CLIENT_ID, client_secret: sandbox.current.credentials.oauth_client_secret,
    }, null);
    expect(r.status).toBe(200);
  });

  it('rejects a reused code and revokes the tokens issued from it', async () => {
    const { code, verifier, redirectUri } = await approvedCode(sandbox.current);
    const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
    const first = await oauthPost(sandbox.current, '/oauth/token', form);
    expect(first.status).toBe(200);
    const second = await oauthPost(sandbox.current, '/oauth/token', form);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect(await apiStatus(first.body.access_token)).toBe(401);
    const refreshed = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('rejects a code older than 10 minutes', async () => {
    const { code, verifier, redirectUri } = await approvedCode(sandbox.current);
    const clock = await fetch(`${sandbox.current.origin}/_sandbox/clock`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_seconds: 601 }),
    });
    expect(clock.status).toBe(200);
    const r = await oauthPost(sandbox.current, '/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier,
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
  });

  it('rejects a wrong PKCE verifier', async () => {
    const { code, redirectUri } = await approvedCode(sandbox.current);
    const r = await oauthPost(sandbox.current, '/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkce().verifier,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_grant');
    expect(r.body.error_description).toMatch(/code_verifier/);
  });

  it('rejects a redirect_uri that differs from the one at authorize (even only by port)', async () => {
    const { code, verifier } = await approvedCode(sandbox.current, { redirectUri: 'http://127.0.0.1:50001/callback' });
    const r = await oauthPost(sandbox.current, '/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:50002/callback', code_verifier: verifier,
    });
    expect(r.body.error).toBe('invalid_grant');
  });

  it('answers invalid_client with 401 and WWW-Authenticate: Basic for a wrong secret or none', async () => {
    for (const auth of [basicAuth(sandbox.current, 'wrong-secret'), null]) {
      const r = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'authorization_code', code: 'x' }, auth);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
      expect(r.headers.get('www-authenticate')).toMatch(/^Basic/);
    }
  });

  it('names missing parameters and unknown grant types', async () => {
    expect((await oauthPost(sandbox.current, '/oauth/token', {})).body.error).toBe('invalid_request');
    expect((await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
    const r = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'authorization_code', code: 'abc' });
    expect(r.body).toEqual({ error: 'invalid_request', error_description: 'redirect_uri is required.' });
  });
});

describe('POST /oauth/token: refresh_token', () => {
  it('rotates: a new pair each time; replaying a retired refresh token revokes the grant', async () => {
    const first = await issueTokens(sandbox.current);
    const second = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(await apiStatus(second.body.access_token)).toBe(200);

    const replay = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect(await apiStatus(second.body.access_token)).toBe(401);
    const after = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'refresh_token', refresh_token: second.body.refresh_token });
    expect(after.body.error).toBe('invalid_grant');
  });

  it('can narrow the scope but not widen it', async () => {
    const tokens = await issueTokens(sandbox.current, 'messages.read messages.write offline_access');
    const wider = await oauthPost(sandbox.current, '/oauth/token', {
      grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, scope: 'messages.read patients.write',
    });
    expect(wider.body.error).toBe('invalid_scope');
    const narrower = await oauthPost(sandbox.current, '/oauth/token', {
      grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, scope: 'messages.read',
    });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('messages.read');
  });

  it('refuses another client\'s refresh token', async () => {
    const tokens = await issueTokens(sandbox.current);
    const other = sandbox.current.sb.store.table<{ id: string; secret: string }>('oauth_clients').get('unapproved-app')!;
    const r = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
      basicAuth(sandbox.current, other.secret, 'unapproved-app'));
    expect(r.body.error).toBe('invalid_grant');
  });
});

describe('POST /oauth/revoke', () => {
  it('revoking a refresh token revokes the grant\'s access tokens', async () => {
    const tokens = await issueTokens(sandbox.current);
    const r = await oauthPost(sandbox.current, '/oauth/revoke', { token: tokens.refresh_token!, token_type_hint: 'refresh_token' });
    expect(r.status).toBe(200);
    expect(await apiStatus(tokens.access_token)).toBe(401);
    const refreshed = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('revoking an access token leaves the refresh token working', async () => {
    const tokens = await issueTokens(sandbox.current);
    expect((await oauthPost(sandbox.current, '/oauth/revoke', { token: tokens.access_token })).status).toBe(200);
    expect(await apiStatus(tokens.access_token)).toBe(401);
    const refreshed = await oauthPost(sandbox.current, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    expect(refreshed.status).toBe(200);
  });

  it('answers 200 for an unknown token, 401 without client auth, 400 without a token', async () => {
    expect((await oauthPost(sandbox.current, '/oauth/revoke', { token: 'never-issued' })).status).toBe(200);
    expect((await oauthPost(sandbox.current, '/oauth/revoke', { token: 'x' }, null)).status).toBe(401);
    expect((await oauthPost(sandbox.current, '/oauth/revoke', {})).body.error).toBe('invalid_request');
  });
});

describe('metadata', () => {
  it('publishes RFC 8414 server metadata', async () => {
    const r = await fetch(`${sandbox.current.origin}/.well-known/oauth-authorization-server`);
    const body = await r.json();
    expect(body).toMatchObject({
      issuer: sandbox.current.origin,
      token_endpoint: `${sandbox.current.origin}/oauth/token`,
      code_challenge_methods_supported: ['S256'],
    });
  });
});
