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
import { approveAt, approvingBrowser, decideViaHttp, loginEnv } from '../helpers/login-harness.js';

const sandbox = useSandbox();

/** A desktop session (a display: a browser can open) unless `extra` says otherwise. */
const desktopLoginEnv = (extra: Record<string, string | undefined> = {}) => loginEnv(sandbox.current, { DISPLAY: ':0', ...extra });

describe('msgctl login with an injected browser', () => {
  it('opens the authorize URL, and the approved session works for later commands', async () => {
    const env = desktopLoginEnv();
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
    const env = isolatedEnv({ ...desktopLoginEnv(), MSGCTL_LOGIN_TIMEOUT_SECONDS: '1' });
    const browser = approvingBrowser();
    const r = await msgctl(['login', '--insecure-storage', '--no-browser'], { env, services: { openBrowser: browser.openBrowser } });
    expect(browser.opened).toEqual([]);
    expect(r.stderr).toMatch(/Open this URL in a browser and sign in as an org admin:\n\n {2}http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?/);
    expect(r.exitCode).toBe(1);
  });

  it('when the browser cannot be opened, warns and still takes the sign-in from the printed URL', async () => {
    const env = desktopLoginEnv();
    let user: Promise<unknown> = Promise.resolve();
    const openBrowser = async (url: string) => {
      // The person copies the printed URL into a browser themselves.
      user = approveAt(url);
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
    const env = desktopLoginEnv();
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

/** Runs login with a stdin the test types into, as the person at the SSH session would. */
async function loginWithPaste(
  env: Record<string, string | undefined>,
  answer: (authorizeUrl: string) => Promise<string>,
  args: string[] = ['--no-browser'],
  services: Partial<import('../../src/cli/context.js').Services> = {},
) {
  const { PassThrough, Writable } = await import('node:stream');
  const { run } = await import('../../src/cli/cli.js');
  let stderr = '';
  let stdout = '';
  const sink = (append: (s: string) => void) => new Writable({ write(chunk, _e, done) { append(String(chunk)); done(); } });
  const stdin = new PassThrough();
  const exit = run(['login', '--insecure-storage', ...args], {
    env,
    services,
    io: { stdin, stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)) },
  });
  let url: string | undefined;
  for (let i = 0; i < 200 && !url; i++) {
    url = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(stderr)?.[1];
    if (!url) await new Promise((r) => setTimeout(r, 10));
  }
  stdin.write(await answer(url!));
  const exitCode = await exit;
  stdin.destroy();
  return { exitCode, stdout, stderr };
}

describe('msgctl login --no-browser over SSH: pasting the redirect URL', () => {
  it('takes the pasted URL the browser ended on: state checked, code exchanged with PKCE', async () => {
    const env = desktopLoginEnv();
    const r = await loginWithPaste(env, async (url) => {
      // The browser is on another machine: it never reaches the listener, the person copies its address bar.
      const decision = await decideViaHttp(url, { decision: 'approve' });
      return `not a url\n${decision.location}\n`;
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/ssh -L (\d+):127\.0\.0\.1:\1/);
    expect(r.stderr).toMatch(/paste it here and press Enter/);
    expect(r.stderr).toMatch(/that is not a URL/);
    expect(r.stdout).toBe('Logged in as Dana Admin (org admin) — Riverside Family Clinic\n');
    const me = await msgctl(['me', '--json'], { env: { ...env, MSGCTL_CLIENT_SECRET: undefined } });
    expect(jsonLines(me.stdout)[0]).toMatchObject({ user: { name: 'Dana Admin' } });
  });

  it('refuses a pasted URL from another login (state mismatch) and stores nothing', async () => {
    const env = desktopLoginEnv();
    const r = await loginWithPaste(env, async (url) => {
      const decision = await decideViaHttp(url, { decision: 'approve' });
      const forged = new URL(decision.location!);
      forged.searchParams.set('state', 'someone-elses-state');
      return `${forged}\n`;
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/state mismatch/);
    const status = await msgctl(['auth', 'status', '--json'], { env });
    expect(jsonLines(status.stdout)[0]).toMatchObject({ credential: null });
  });
});

describe('an API key and an OAuth session on one profile', () => {
  it('login says before sign-in that it replaces the sandbox key; after logout, org says how to get one back', async () => {
    const env = { ...desktopLoginEnv(), MSGCTL_BASE_URL: undefined };
    const base = ['--profile', 'sandbox', '--base-url', sandbox.current.baseUrl];
    const setKey = await msgctl([...base, 'auth', 'set-key', '--insecure-storage', '--name', 'sandbox'], { env, input: sandbox.current.credentials.api_key });
    expect(setKey.exitCode, setKey.stderr).toBe(0);
    const browser = approvingBrowser();
    const login = await msgctl([...base, 'login', '--insecure-storage'], { env, services: { openBrowser: browser.openBrowser } });
    await browser.finished();
    expect(login.exitCode, login.stderr).toBe(0);
    const warning = login.stderr.indexOf('profile "sandbox" has an API key ("sandbox"); the login session replaces it');
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(warning).toBeLessThan(login.stderr.indexOf('Opening your browser'));
    expect(login.stderr).toMatch(/msgctl sandbox --write-profile/);

    const logout = await msgctl(['--profile', 'sandbox', 'logout'], { env });
    expect(logout.exitCode, logout.stderr).toBe(0);
    expect(logout.stderr).toMatch(/msgctl sandbox --write-profile/);
    const org = await msgctl(['--profile', 'sandbox', 'org'], { env });
    expect(org.exitCode).toBe(3);
    expect(org.stderr).toMatch(/No credential for profile "sandbox"/);
    expect(org.stderr).toMatch(/restart it with `msgctl sandbox --write-profile`, which writes its new API key into the "sandbox" profile/);
  });
});

describe('headless login without traps (issue 29 item 9)', () => {
  const neverOpens = async () => {
    throw new Error('the test browser must not be asked');
  };
  const pasteOf = async (url: string) => {
    // The browser is elsewhere: the person approves there and pastes the address it ended on.
    const decision = await decideViaHttp(url, { decision: 'approve' });
    return decision.location! + '\n';
  };

  it.each([
    ['no display on Linux', { DISPLAY: undefined, WAYLAND_DISPLAY: undefined }, /there is no graphical display here/],
    ['an SSH session', { DISPLAY: undefined, SSH_CONNECTION: '10.0.0.2 50000 10.0.0.1 22' }, /this is an SSH session/],
  ])('%s: no "Opening your browser", says why, and takes the pasted address', async (_name, extra, why) => {
    if (process.platform !== 'linux') return;
    const r = await loginWithPaste(desktopLoginEnv(extra), pasteOf, [], { openBrowser: neverOpens });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/Opening your browser/);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toMatch(/paste it here and press Enter/);
  });

  it('SSH with an X-forwarded display still opens the browser', async () => {
    if (process.platform !== 'linux') return;
    const browser = approvingBrowser();
    const r = await msgctl(['login', '--insecure-storage'], { env: desktopLoginEnv({ SSH_CONNECTION: '10.0.0.2 50000 10.0.0.1 22', DISPLAY: 'localhost:10.0' }), services: { openBrowser: browser.openBrowser } });
    await browser.finished();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(browser.opened).toHaveLength(1);
  });

  it('a browser that fails to open: the paste fallback is offered on screen and works', async () => {
    const r = await loginWithPaste(desktopLoginEnv(), pasteOf, [], {
      openBrowser: async () => {
        throw new Error('xdg-open: no method available');
      },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/could not open a browser; open the URL above yourself, then paste the address the browser ends on here/);
  });

  it('even when the browser opened, a pasted address is taken (it may have opened on another machine)', async () => {
    const r = await loginWithPaste(desktopLoginEnv(), pasteOf, [], { openBrowser: async () => {} });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Opening your browser/);
    expect(r.stderr).toMatch(/paste the address it ends on here/);
  });
});
