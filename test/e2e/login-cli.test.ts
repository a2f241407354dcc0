/**
 * `msgctl login` end to end, with the approve page driven by plain HTTP (the
 * browser test is login-browser.test.ts): the loopback listener's rules,
 * storing the session, refresh, and logout's revocation.
 */
import { describe, expect, it } from 'vitest';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
// The commands around a login (me, logout, refresh) run in-process; the logins under test are the built
// binary (login-harness), the set-up logins of the stored-session tests in-process.
import { jsonLines, msgctl } from '../helpers/in-process.js';
import { approvingBrowser, CLIENT_ID, decideViaHttp, loginEnv, startLogin } from '../helpers/login-harness.js';
import { oauthTables } from '../../src/sandbox/domain/oauth-records.js';
import { againAfterKeyringRestart } from '../helpers/keyring.js';

const sandbox = useSandbox();

const sandboxLoginEnv = (extra: Record<string, string | undefined> = {}) => loginEnv(sandbox.current, extra);

/** Env for later commands: the stored session only, no client secret in the environment. */
function afterLoginEnv(env: Record<string, string | undefined>) {
  return { ...env, MSGCTL_CLIENT_SECRET: undefined, MSGCTL_CLIENT_ID: undefined };
}

function credentialsFile(env: Record<string, string | undefined>) {
  return join(env.XDG_CONFIG_HOME!, 'msgctl', 'credentials.json');
}

function storedSession(env: Record<string, string | undefined>) {
  return JSON.parse(JSON.parse(readFileSync(credentialsFile(env), 'utf8')).default);
}

const callbackOf = (authorizeUrl: string) => new URL(new URL(authorizeUrl).searchParams.get('redirect_uri')!);

/** Plays the browser: approve (or deny) on the sandbox, then follow the redirect to the CLI. */
async function actAsBrowser(url: string, answer: Parameters<typeof decideViaHttp>[1] = { decision: 'approve' }) {
  const decision = await decideViaHttp(url, answer);
  expect(decision.status).toBe(302);
  const tab = await fetch(decision.location!);
  return { status: tab.status, html: await tab.text() };
}

/**
 * Set-up for the tests of a stored session: a login in this process, approved by a stand-in
 * browser (the built binary's own login is the first test's).
 */
async function loggedIn() {
  const env = sandboxLoginEnv();
  const browser = approvingBrowser();
  const r = await msgctl(['login', '--insecure-storage'], { env: { ...env, DISPLAY: ':0' }, services: { openBrowser: browser.openBrowser } });
  await browser.finished();
  expect(r.exitCode, r.stderr).toBe(0);
  return env;
}

function connectionResult(host: string, port: number): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('ETIMEDOUT');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

describe('msgctl login', () => {
  it('signs in, stores the session in a 0600 file, and `msgctl me` works with it', async () => {
    const env = sandboxLoginEnv();
    const login = startLogin(['--insecure-storage'], env);
    const url = await login.url;
    expect(url.startsWith(`${sandbox.current.origin}/oauth/authorize?`)).toBe(true);
    const params = new URL(url).searchParams;
    expect(params.get('code_challenge_method')).toBe('S256');
    // Every scope by default, so conversation-scoped commands work after a plain login.
    expect(params.get('scope')).toBe(
      'messages.read messages.write patients.read patients.write offline_access ' +
        'messages:read conversations:read participants:read participants:write reactions:write exports:read',
    );
    expect(callbackOf(url).hostname).toBe('127.0.0.1');

    // Stray requests get 404 and do not end the wait.
    const stray = await fetch(new URL('/favicon.ico', callbackOf(url)));
    expect(stray.status).toBe(404);
    const tab = await actAsBrowser(url);
    expect(tab.status).toBe(200);
    expect(tab.html).toMatch(/You can close this tab/);

    const result = await login.result;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('Logged in as Dana Admin (org admin) — Riverside Family Clinic\n');
    expect(statSync(credentialsFile(env)).mode & 0o777).toBe(0o600);
    const session = storedSession(env);
    expect(session).toMatchObject({ kind: 'oauth', client_id: CLIENT_ID, scope: expect.stringContaining('offline_access') });
    expect(typeof session.refresh_token).toBe('string');
    expect(Date.parse(session.expires_at)).toBeGreaterThan(Date.now() + 3500_000);
    // Nothing secret on stderr.
    expect(result.stderr).not.toContain(session.access_token);
    expect(result.stderr).not.toContain(sandbox.current.credentials.oauth_client_secret);

    const me = await msgctl(['me', '--json'], { env: afterLoginEnv(env) });
    expect(me.exitCode, me.stderr).toBe(0);
    expect(jsonLines(me.stdout)[0]).toMatchObject({ user: { name: 'Dana Admin' }, app: { client_id: CLIENT_ID } });

    const status = await msgctl(['auth', 'status', '--json'], { env: afterLoginEnv(env) });
    expect(status.exitCode, status.stderr).toBe(0);
    const info = jsonLines(status.stdout)[0];
    expect(info).toMatchObject({ credential: 'oauth', source: 'file', organization: { name: 'Riverside Family Clinic' } });
    expect(info.scopes).toContain('messages.write');
    expect(Date.parse(info.expires_at)).toBeGreaterThan(Date.now());
  });

  it('Deny ends the login with exit 3 and says so', async () => {
    const login = startLogin(['--insecure-storage'], sandboxLoginEnv());
    const tab = await actAsBrowser(await login.url, { decision: 'deny', email: '', password: '' });
    expect(tab.html).toMatch(/denied/i);
    const result = await login.result;
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/You denied access/);
  });

  it('answers a callback with the wrong or no state with an error page and keeps waiting for its own (issue 27)', async () => {
    const env = sandboxLoginEnv();
    const login = startLogin(['--insecure-storage'], env);
    const url = await login.url;
    // What any local user could send: a forged code under a wrong state, then none at all.
    for (const params of [{ code: 'forged', state: 'not-the-state' }, { error: 'access_denied' }] as Record<string, string>[]) {
      const callback = callbackOf(url);
      callback.search = new URLSearchParams(params).toString();
      const tab = await fetch(callback);
      expect(tab.status).toBe(400);
      expect(await tab.text()).toMatch(/does not match/);
    }
    // The login is still there, and its own sign-in completes it.
    await actAsBrowser(url);
    const result = await login.result;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/state mismatch/);
    expect(statSync(credentialsFile(env)).mode & 0o777).toBe(0o600);
  });

  it('gives up after MSGCTL_LOGIN_TIMEOUT_SECONDS with exit 1', async () => {
    const login = startLogin(['--insecure-storage'], sandboxLoginEnv({ MSGCTL_LOGIN_TIMEOUT_SECONDS: '1' }));
    const result = await login.result;
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/Timed out after 1 second waiting for the browser sign-in/);
  });

  it('exits 130 on Ctrl-C', async () => {
    const login = startLogin(['--insecure-storage'], sandboxLoginEnv());
    await login.url;
    login.child.kill('SIGINT');
    const result = await login.result;
    expect(result.exitCode).toBe(130);
  });

  it('exits 2 with a clear message when --port is taken', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await msgctl(['login', '--no-browser', '--insecure-storage', '--port', String(port)], { env: sandboxLoginEnv() });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`Port ${port} on 127.0.0.1 is already in use`));
    } finally {
      busy.close();
    }
  });

  it('exits 2 without a client id, before listening', async () => {
    const r = await msgctl(['login', '--no-browser', '--insecure-storage'], { env: sandboxLoginEnv({ MSGCTL_CLIENT_ID: undefined }) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/No OAuth client id/);
    expect(r.stderr).not.toMatch(/oauth\/authorize/);
  });

  it('listens on 127.0.0.1 only, and closes the port as soon as the callback is answered', async () => {
    // Hold the token request, so the CLI is still running while the port is checked.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let tokenRequested!: () => void;
    const tokenRequestSeen = new Promise<void>((r) => (tokenRequested = r));
    const proxy = createHttpServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      tokenRequested();
      await released;
      const upstream = await fetch(`${sandbox.current.origin}${req.url}`, {
        method: req.method,
        headers: { 'content-type': String(req.headers['content-type']), authorization: String(req.headers.authorization) },
        body: Buffer.concat(chunks),
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const login = startLogin(['--insecure-storage'], sandboxLoginEnv({ MSGCTL_AUTH_URL: proxyUrl }));
      const url = (await login.url).replace(proxyUrl, sandbox.current.origin);
      const port = Number(callbackOf(url).port);
      expect(await connectionResult('127.0.0.1', port)).toBe('connected');
      const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
      if (external) expect(await connectionResult(external.address, port)).toBe('ECONNREFUSED');
      else console.warn('no non-loopback IPv4 address on this machine: skipped the other-interface check');

      await actAsBrowser(url);
      await tokenRequestSeen;
      expect(login.child.exitCode).toBeNull();
      expect(await connectionResult('127.0.0.1', port)).toBe('ECONNREFUSED');
      release();
      const result = await login.result;
      expect(result.exitCode, result.stderr).toBe(0);
    } finally {
      release();
      proxy.close();
    }
  });
});

describe('using the stored session', () => {
  it('refreshes an expired access token without the user noticing, and stores the new tokens', async () => {
    const env = await loggedIn();
    const before = storedSession(env);
    sandbox.current.sb.clock.advance(3601 * 1000);
    const me = await msgctl(['me'], { env: afterLoginEnv(env) });
    expect(me.exitCode, me.stderr).toBe(0);
    expect(me.stdout).toMatch(/Dana Admin/);
    expect(me.stderr).toBe('');
    const after = storedSession(env);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // The next command uses the stored new token as is.
    expect((await msgctl(['me'], { env: afterLoginEnv(env) })).exitCode).toBe(0);
    expect(storedSession(env).access_token).toBe(after.access_token);
  });

  it('refreshes ahead of expiry when the stored token is about to expire (no 401 first)', async () => {
    const env = await loggedIn();
    const file = credentialsFile(env);
    const all = JSON.parse(readFileSync(file, 'utf8'));
    all.default = JSON.stringify({ ...JSON.parse(all.default), expires_at: new Date(Date.now() + 10_000).toISOString() });
    writeFileSync(file, JSON.stringify(all), { mode: 0o600 });
    const me = await msgctl(['me', '--verbose'], { env: afterLoginEnv(env) });
    expect(me.exitCode, me.stderr).toBe(0);
    expect(me.stderr).toMatch(/OAuth access token refreshed/);
    expect(me.stderr).not.toMatch(/ 401 /);
  });

  it('says to log in again when the session cannot be renewed', async () => {
    const env = await loggedIn();
    const session = storedSession(env);
    const refresh = oauthTables(sandbox.current.sb.store).refreshTokens.get(session.refresh_token)!;
    // Revoke the grant behind the CLI's back, as an admin would in the product settings.
    const { revokeGrant } = await import('../../src/sandbox/domain/oauth-tokens.js');
    revokeGrant(sandbox.current.sb, refresh.grantId);
    const me = await msgctl(['me'], { env: afterLoginEnv(env) });
    expect(me.exitCode).toBe(3);
    expect(me.stderr).toMatch(/session expired: run `msgctl login` again/);
  });

  it('logout revokes the session at the service, then deletes it', async () => {
    const env = await loggedIn();
    const session = storedSession(env);
    const r = await msgctl(['logout'], { env: afterLoginEnv(env) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Revoked the session/);
    expect(oauthTables(sandbox.current.sb.store).refreshTokens.get(session.refresh_token)!.revoked).toBe(true);
    const check = await fetch(`${sandbox.current.baseUrl}/organization`, { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(check.status).toBe(401);
    expect((await msgctl(['me'], { env: afterLoginEnv(env) })).exitCode).toBe(3);
  });

  it('logout still deletes the session when revocation fails, with a warning', async () => {
    const env = await loggedIn();
    const r = await msgctl(['logout'], { env: { ...afterLoginEnv(env), MSGCTL_AUTH_URL: 'http://127.0.0.1:9' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: could not revoke the session/);
    expect(r.stderr).toMatch(/Removed the credential/);
  });
});

// Linux only: "no keychain" is made by pointing D-Bus at nothing, which macOS and Windows ignore.
describe.skipIf(process.platform !== 'linux')('msgctl login and the OS keychain', () => {
  it('without a usable keychain and without --insecure-storage, fails before the browser step', async () => {
    const r = await msgctl(['login', '--no-browser'], { env: sandboxLoginEnv({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/keychain/i);
    expect(r.stderr).toMatch(/--insecure-storage/);
    expect(r.stderr).not.toMatch(/oauth\/authorize/);
    // What is true: no keychain is reachable (nothing was ever stored, so nothing failed to be read).
    expect(r.stderr).toMatch(/No usable OS keychain here .*no session D-Bus is reachable/);
    expect(r.stderr).not.toMatch(/Cannot read the stored credential/);
    expect(r.stderr).toMatch(/MSGCTL_API_KEY/);
  });

  it.skipIf(process.env.MSGCTL_TEST_KEYCHAIN !== '1')('stores the session in the keychain, refreshes it there, and logout removes it', { timeout: 90_000 }, () =>
    againAfterKeyringRestart(async () => {
      const profile = `login-${randomUUID()}`;
      const env = sandboxLoginEnv();
      const login = startLogin(['--profile', profile], env);
      await actAsBrowser(await login.url);
      const result = await login.result;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/OS keychain/);
      expect(() => statSync(credentialsFile(env))).toThrow();

      sandbox.current.sb.clock.advance(3601 * 1000);
      const later = afterLoginEnv(env);
      expect((await msgctl(['--profile', profile, 'me'], { env: later })).exitCode).toBe(0);
      const status = await msgctl(['--profile', profile, 'auth', 'status', '--json'], { env: later });
      expect(jsonLines(status.stdout)[0]).toMatchObject({ credential: 'oauth', source: 'keychain' });

      const out = await msgctl(['--profile', profile, 'logout'], { env: later });
      expect(out.exitCode, out.stderr).toBe(0);
      expect(out.stderr).toMatch(/Revoked the session/);
      expect((await msgctl(['--profile', profile, 'me'], { env: later })).exitCode).toBe(3);
    }));
});
