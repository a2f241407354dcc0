/**
 * `msgctl login` against a keychain with Windows Credential Manager's limits
 * (issue 32, item 1), in-process against the sandbox: what can be checked
 * before the browser opens is, and a session that cannot be stored whole
 * after the sign-in leaves nothing behind and says what to do.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { msgctl } from '../helpers/in-process.js';
import { approvingBrowser, loginEnv } from '../helpers/login-harness.js';
import { FakeCredentialManager } from '../helpers/fake-credential-manager.js';
import { injectKeychainStore } from '../helpers/keychain-injection.js';

const sandbox = useSandbox();

// Every keychain store the CLI opens while a test runs is the fake's.
const injected = injectKeychainStore();

/** A desktop session: a browser can open. */
const desktopLoginEnv = (extra: Record<string, string | undefined> = {}) => loginEnv(sandbox.current, { DISPLAY: ':0', ...extra });

describe('login into a Windows-sized keychain', () => {
  it('a client secret too large for one entry fails before the browser opens, storing nothing', async () => {
    const manager = new FakeCredentialManager();
    injected.store = () => manager.store();
    try {
      const browser = approvingBrowser();
      const r = await msgctl(['login'], { env: desktopLoginEnv({ MSGCTL_CLIENT_SECRET: 'c'.repeat(1300) }), services: { openBrowser: browser.openBrowser } });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('the client secret is 1,300 characters');
      expect(r.stderr).toContain('No browser was opened');
      expect(r.stderr).toContain('msgctl login --insecure-storage');
      expect(browser.opened).toEqual([]);
      expect(manager.entries.size).toBe(0);
    } finally {
      injected.store = undefined;
    }
  });

  it('a store that fails part-way after the sign-in keeps nothing of the session, and says why and what to do', async () => {
    const manager = new FakeCredentialManager();
    injected.store = () => manager.store();
    try {
      const env = desktopLoginEnv();
      // The login's probe writes once before the browser; the session's second entry then fails.
      manager.failWriteNumber = 3;
      const browser = approvingBrowser();
      const r = await msgctl(['login'], { env, services: { openBrowser: browser.openBrowser } });
      await browser.finished();
      expect(browser.opened).toHaveLength(1);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('Cannot store the credential in the OS keychain');
      expect(r.stderr).toContain('Task Scheduler');
      expect(r.stderr).toContain('Nothing of the login session was stored');
      expect(r.stderr).toContain('--insecure-storage');
      expect([...manager.entries.keys()]).toEqual([]);
      // And the profile does not claim a session it does not have.
      const status = await msgctl(['auth', 'status'], { env });
      expect(status.stdout + status.stderr).not.toContain('OAuth session');
    } finally {
      injected.store = undefined;
    }
  });
});
