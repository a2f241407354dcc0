import { describe, expect, it } from 'vitest';
import { isRegisteredRedirectUri } from '../../src/sandbox/domain/oauth-redirect-uri.js';
import { authUrlFrom } from '../../src/cli/auth/oauth-endpoints.js';
import { expiresSoon, REFRESH_MARGIN_MS } from '../../src/cli/auth/oauth-refresh.js';
import { basicAuthorization } from '../../src/cli/auth/oauth-token-client.js';
import { loginTimeoutMs } from '../../src/cli/auth/login.js';

describe('redirect URI matching (RFC 8252 §7.3)', () => {
  const registered = ['http://127.0.0.1/callback', 'https://app.example.com/cb'];
  it.each([
    ['http://127.0.0.1/callback', true],
    ['http://127.0.0.1:53211/callback', true],
    ['http://127.0.0.1:1/callback', true],
    ['https://app.example.com/cb', true],
    ['https://app.example.com:8443/cb', false],
    ['http://127.0.0.1:53211/callback/extra', false],
    ['http://127.0.0.1:53211/callback?x=1', false],
    ['http://127.0.0.1:53211/callback#frag', false],
    ['http://user@127.0.0.1:53211/callback', false],
    ['https://127.0.0.1:53211/callback', false],
    ['http://127.0.0.2:53211/callback', false],
    ['http://localhost:53211/callback', false],
    ['not a url', false],
  ])('%s → %s', (uri, expected) => {
    expect(isRegisteredRedirectUri(registered, uri)).toBe(expected);
  });
});

describe('auth URL', () => {
  it('is the base URL without /v1 unless overridden', () => {
    expect(authUrlFrom('http://127.0.0.1:4010/v1', undefined).href).toBe('http://127.0.0.1:4010/');
    expect(authUrlFrom('https://api.example.com/v1/', undefined).href).toBe('https://api.example.com/');
    expect(authUrlFrom('https://api.example.com/gw/v1', undefined).href).toBe('https://api.example.com/gw/');
    expect(authUrlFrom('https://api.example.com/v1', 'https://auth.example.com').href).toBe('https://auth.example.com/');
    expect(() => authUrlFrom('https://api.example.com/v1', 'http://auth.example.com')).toThrow(/plain http/);
  });
});

describe('refresh timing', () => {
  const now = Date.parse('2026-11-01T12:00:00Z');
  const at = (ms: number) => ({ kind: 'oauth' as const, access_token: 't', expires_at: new Date(now + ms).toISOString() });
  it('refreshes inside the margin and after expiry, not before', () => {
    expect(expiresSoon(at(REFRESH_MARGIN_MS + 5000), now)).toBe(false);
    expect(expiresSoon(at(REFRESH_MARGIN_MS - 5000), now)).toBe(true);
    expect(expiresSoon(at(-1000), now)).toBe(true);
    expect(expiresSoon({ kind: 'oauth', access_token: 't' }, now)).toBe(false);
  });
});

describe('client authentication header', () => {
  it('form-encodes id and secret before base64 (RFC 6749 §2.3.1)', () => {
    const header = basicAuthorization({ clientId: 'my app', clientSecret: 'a:b/c' });
    const decoded = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString();
    expect(decoded).toBe('my+app:a%3Ab%2Fc');
  });
});

describe('login timeout', () => {
  it('defaults to 5 minutes and reads MSGCTL_LOGIN_TIMEOUT_SECONDS', () => {
    expect(loginTimeoutMs({})).toBe(300_000);
    expect(loginTimeoutMs({ MSGCTL_LOGIN_TIMEOUT_SECONDS: '2.5' })).toBe(2500);
    expect(() => loginTimeoutMs({ MSGCTL_LOGIN_TIMEOUT_SECONDS: '0' })).toThrow(/MSGCTL_LOGIN_TIMEOUT_SECONDS/);
    expect(() => loginTimeoutMs({ MSGCTL_LOGIN_TIMEOUT_SECONDS: 'soon' })).toThrow();
  });
});
