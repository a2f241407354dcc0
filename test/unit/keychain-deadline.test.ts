/**
 * The keychain deadline and the reasons given when a keychain fails, with fake
 * helpers instead of a real OS keychain: a helper that is slow to start (cold
 * Node, antivirus), one that never answers, and the messages each OS's store
 * produces. Runs the same on every OS.
 */
import { describe, expect, it } from 'vitest';
import {
  KeychainSecretStore,
  explainKeychainFailure,
  keychainService,
  type HelperLauncher,
  type HelperReply,
  type HelperRequest,
} from '../../src/cli/auth/keychain-store.js';
import { SecretStoreUnavailableError, keychainTimeoutMs, openSecretStore } from '../../src/cli/auth/secret-store.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A helper that becomes ready after `startMs` and answers `answerMs` later (never, if null). */
function fakeHelper(startMs: number, answerMs: number | null, requests: HelperRequest[] = [], killed: { count: number } = { count: 0 }): HelperLauncher {
  return (request) => {
    requests.push(request);
    const ready = sleep(startMs);
    const answer =
      answerMs === null
        ? new Promise<HelperReply>(() => undefined)
        : ready.then(() => sleep(answerMs)).then((): HelperReply => ({ ok: true, value: 'sk_test_slow' }));
    return { ready, answer, kill: () => killed.count++ };
  };
}

describe('keychain deadline', () => {
  it('starts when the helper is ready: a slow start does not use up the time', async () => {
    const store = new KeychainSecretStore({}, 300, { launch: fakeHelper(700, 150), readDirect: null });
    // On main the deadline ran from the spawn: 700 ms of start-up beat a 300 ms limit.
    expect(await store.get('default')).toBe('sk_test_slow');
  });

  it('gives up at the deadline once ready, kills the helper, and says why for the OS', async () => {
    const killed = { count: 0 };
    const store = new KeychainSecretStore({}, 200, { launch: fakeHelper(50, null, [], killed), platform: 'darwin', readDirect: null });
    const started = Date.now();
    const err = await store.get('default').catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(err).toBeInstanceOf(SecretStoreUnavailableError);
    expect((err as Error).message).toContain('did not answer within 200 ms');
    expect((err as Error).message).toContain('allow "node" to use the keychain');
    expect((err as Error).message).not.toContain('D-Bus');
    expect(killed.count).toBe(1);
  });

  it('waits longer at a terminal, where a person can answer a keychain dialog', () => {
    expect(keychainTimeoutMs({}, undefined, false)).toBe(3000);
    expect(keychainTimeoutMs({}, undefined, true)).toBeGreaterThanOrEqual(30_000);
    expect(keychainTimeoutMs({ MSGCTL_KEYCHAIN_TIMEOUT_MS: '900' }, undefined, true)).toBe(900);
    const atTerminal = openSecretStore('keychain', {}, { terminal: true }) as unknown as { inner: KeychainSecretStore };
    expect(atTerminal.inner.timeoutMs).toBeGreaterThanOrEqual(30_000);
  });
});

describe('keychain service name', () => {
  it('is msgctl, unless a test run names its own', () => {
    expect(keychainService({})).toBe('msgctl');
    expect(keychainService({ MSGCTL_KEYCHAIN_SERVICE: 'msgctl-test' })).toBe('msgctl-test');
  });

  it('is the test name in this very test process, so no test touches real entries', async () => {
    expect(process.env.MSGCTL_KEYCHAIN_SERVICE).toBe('msgctl-test');
    const requests: HelperRequest[] = [];
    await new KeychainSecretStore(process.env, 500, { launch: fakeHelper(0, 0, requests), readDirect: null }).set('default', 'sk_test_x');
    expect(requests[0]).toMatchObject({ service: 'msgctl-test', account: 'default', secret: 'sk_test_x' });
  });
});

describe('keychain failure reasons per OS', () => {
  it.each([
    ['darwin', 'User interaction is not allowed. (-25308)', 'login keychain is locked'],
    ['darwin', 'User canceled the operation. (-128)', 'dialog was cancelled'],
    ['win32', 'A specified logon session does not exist. It may already have been terminated. (os error 1312)', 'Task Scheduler'],
    ['win32', "Attribute 'password' is longer than platform limit of 2560 chars", '2,560 bytes'],
    ['linux', 'Platform failure: DBus error: Failed to connect to socket /nonexistent: No such file or directory', 'no session D-Bus'],
  ] as const)('%s: %s', (platform, raw, reason) => {
    const explained = explainKeychainFailure(raw, platform);
    expect(explained).toContain(reason);
    expect(explained).toContain(raw);
  });

  it('never blames D-Bus on macOS or Windows', () => {
    const raw = 'Platform failure: No such file or directory (os error 2)';
    expect(explainKeychainFailure(raw, 'darwin')).not.toContain('D-Bus');
    expect(explainKeychainFailure(raw, 'win32')).not.toContain('D-Bus');
    expect(explainKeychainFailure(raw, 'linux')).toContain('D-Bus');
  });
});
