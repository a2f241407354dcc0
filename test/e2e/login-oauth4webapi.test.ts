/**
 * A standard OAuth client written elsewhere (oauth4webapi) against the
 * sandbox: discovery, authorization code + PKCE, refresh_token, revocation.
 * If the sandbox bent the protocol to fit msgctl's own client, this fails.
 * The approve page is answered with plain HTTP posts, as a browser would.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { useSandbox } from '../helpers/sandbox.js';
import { CLIENT_ID, decideViaHttp } from '../helpers/login-harness.js';

const sandbox = useSandbox();
const REDIRECT_URI = 'http://127.0.0.1:61234/callback';
const insecure = { [oauth.allowInsecureRequests]: true };

let as: oauth.AuthorizationServer;
let client: oauth.Client;
let clientAuth: oauth.ClientAuth;

beforeAll(async () => {
  const issuer = new URL(sandbox.current.origin);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  client = { client_id: CLIENT_ID };
  clientAuth = oauth.ClientSecretBasic(sandbox.current.credentials.oauth_client_secret);
});

/** Runs the front channel; returns the validated callback parameters and the verifier. */
async function authorize(scope: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const decision = await decideViaHttp(url.toString(), { decision: 'approve' });
  expect(decision.status).toBe(302);
  const params = oauth.validateAuthResponse(as, client, new URL(decision.location!), state);
  return { params, verifier };
}

async function exchange(params: URLSearchParams, verifier: string) {
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT_URI, verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

async function me(accessToken: string) {
  return oauth.protectedResourceRequest(accessToken, 'GET', new URL(`${sandbox.current.baseUrl}/me`), undefined, undefined, insecure);
}

describe('oauth4webapi against the sandbox', () => {
  it('authorization code + PKCE, then refresh_token, then revocation', async () => {
    const { params, verifier } = await authorize('messages.read offline_access');
    const tokens = await exchange(params, verifier);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();
    const profile = await me(tokens.access_token);
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { user: { name: string } }).user.name).toBe('Dana Admin');

    const refreshed = await oauth.processRefreshTokenResponse(
      as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await me(refreshed.access_token)).status).toBe(200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure));
    // oauth4webapi turns the 401's WWW-Authenticate challenge into an error naming invalid_token.
    const rejected = await me(refreshed.access_token).then(() => null, (err: unknown) => err);
    expect(rejected).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((rejected as oauth.WWWAuthenticateChallengeError).cause[0]).toMatchObject({
      scheme: 'bearer', parameters: { error: 'invalid_token' },
    });
    const afterRevoke = oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token!, insecure)
      .then((r) => oauth.processRefreshTokenResponse(as, client, r));
    await expect(afterRevoke).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('works with client_secret_post too', async () => {
    const { params, verifier } = await authorize('messages.read');
    const response = await oauth.authorizationCodeGrantRequest(
      as, client, oauth.ClientSecretPost(sandbox.current.credentials.oauth_client_secret), params, REDIRECT_URI, verifier, insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('surfaces invalid_grant for a wrong verifier and a replayed code', async () => {
    const { params, verifier } = await authorize('messages.read');
    const wrong = exchange(params, oauth.generateRandomCodeVerifier());
    await expect(wrong).rejects.toMatchObject({ error: 'invalid_grant' });
    // The failed attempt burnt the code: the right verifier is too late.
    await expect(exchange(params, verifier)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('surfaces an access_denied from the front channel', async () => {
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, scope: 'messages.read', state,
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), code_challenge_method: 'S256',
    }).toString();
    const decision = await decideViaHttp(url.toString(), { decision: 'deny' });
    expect(() => oauth.validateAuthResponse(as, client, new URL(decision.location!), state)).toThrow(
      expect.objectContaining({ error: 'access_denied' }),
    );
  });
});
