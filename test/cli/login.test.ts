/**
 * `msgctl login` in-process with a browser double: the opener the Context
 * injects is replaced by one that plays the user in the browser (sign in and
 * approve over plain HTTP, then follow the redirect to the CLI's loopback
 * listener). The real `open` package and a real Chromium are covered by
 * test/e2e/login-browser.test.ts; Ctrl-C and the listener's network rules by
 * test/e2e/login-cli.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl } from '../helpers/in-process.js';
import { CLIENT_ID, decideViaHttp } from '../helpers/login-harness.js';

const sandbox = useSandbox();

function loginEnv() {
  return isolatedEnv({
    MSGCTL_BASE_URL: sandbox.current.baseUrl,
    MSGCTL_CLIENT_ID: CLIENT_ID,
    MSGCTL_CLIENT_SECRET: sandbox.current.credentials.oauth_client_secret,
  });
}

/** A browser that signs in as the org admin and approves, recording what it was asked to open. */
function approvingBrowser() {
  const opened: string[] = [];
  let done: Promise<unknown> = Promise.resolve();
  const openBrowser = async (url: string) => {
    opened.push(url);
    // The CLI waits for the callback after opening: answer in the background, as a real browser would.
    done = (async () => {
      const decision = await decideViaHttp(url, { decision: 'approve' });
      await (await fetch(decision.location!)).text();
    })();
  };
  return { openBrowser, opened, finished: () => done };
}

describe('msgctl login with an injected browser', () => {
  it('opens the authorize URL, and the approved session works for later commands', async () => {
    const env = loginEnv();
    const browser = approvingBrowser();
    const r = await msgctl(['login', '--insecure-storage'], { env, services: { openBrowser: browser.openBrowser } });
    await browser.finished();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(browser.opened).toHaveLength(1);
    expect(browser.opened[0]!.startsWith(`${sandbox.current.origin}/oauth/authorize?`)).toBe(true);
    expect(new URL(browser.opened[0]!).searchParams.get('code_challenge_method')).toBe('S256');
    expect(r.stderr).toMatch(/Opening your browser to sign in/);
    expect(r.stdout).toBe('Logged in as Dana Admin (org admin) — Riverside Family Clinic\n');
    const me = await msgctl(['me', '--json'], { env: { ...env, MSGCTL_CLIENT_SECRET: undefined } });
    expect(jsonLines(me.stdout)[0]).toMatchObject({ user: { name: 'Dana Admin' } });
  });

  it('with --no-browser prints the URL and opens nothing', async () => {
    const env = isolatedEnv({ ...loginEnv(), MSGCTL_LOGIN_TIMEOUT_SECONDS: '1' });
    const browser = approvingBrowser();
    const r = await msgctl(['login', '--insecure-storage', '--no-browser'], { env, services: { openBrowser: browser.openBrowser } });
    expect(browser.opened).toEqual([]);
    expect(r.stderr).toMatch(/Open this URL in a browser and sign in as an org admin:\n\n {2}http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?/);
    expect(r.exitCode).toBe(1);
  });

  it('when the browser cannot be opened, warns and still takes the sign-in from the printed URL', async () => {
    const env = loginEnv();
    let user: Promise<unknown> = Promise.resolve();
    const openBrowser = async (url: string) => {
      // The person copies the printed URL into a browser themselves.
      user = (async () => {
        const decision = await decideViaHttp(url, { decision: 'approve' });
        await (await fetch(decision.location!)).text();
      })();
      throw new Error('no browser here');
    };
    const r = await msgctl(['login', '--insecure-storage'], { env, services: { openBrowser } });
    await user;
    expect(r.stderr).toMatch(/could not open a browser; open the URL above yourself/);
    expect(r.exitCode, r.stderr).toBe(0);
  });
});

describe('auth status for people', () => {
  it('an OAuth session shows the user on its own line, not under key_name, and no JSON blobs', async () => {
    const env = loginEnv();
    const browser = approvingBrowser();
    const login = await msgctl(['login', '--insecure-storage'], { env, services: { openBrowser: browser.openBrowser } });
    await browser.finished();
    expect(login.exitCode, login.stderr).toBe(0);
    const status = await msgctl(['auth', 'status'], { env });
    expect(status.exitCode, status.stderr).toBe(0);
    const fields = new Map(status.stdout.trim().split('\n').map((l) => l.split('\t') as [string, string]));
    expect(fields.get('credential')).toBe('OAuth session');
    expect(fields.get('user')).toMatch(/^Dana Admin (<[^>]+> )?\(admin\)$/);
    expect(fields.get('organization')).toMatch(/^Riverside Family Clinic \([0-9a-f-]{36}\)$/);
    expect(fields.has('key_name')).toBe(false);
    expect(status.stdout).not.toContain('{');
    const json = jsonLines((await msgctl(['auth', 'status', '--json'], { env })).stdout)[0];
    expect(json).toMatchObject({ credential: 'oauth', key_name: null, user: { name: 'Dana Admin' } });
  });

  it('a key from MSGCTL_API_KEY says so where the key name goes', async () => {
    const env = isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl, MSGCTL_API_KEY: sandbox.current.credentials.api_key });
    const status = await msgctl(['auth', 'status'], { env });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toContain('key_name\tfrom MSGCTL_API_KEY\n');
    expect(status.stdout).toContain('source\tenvironment (MSGCTL_API_KEY)\n');
    expect(status.stdout).not.toContain('{');
  });
});
