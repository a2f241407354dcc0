/**
 * Keychain reads in this process (issue 30): on Linux over the session D-Bus
 * without the native module (secret-service-read.ts), with a hard deadline and
 * without a second Node. The round trips run against a real Secret Service
 * (MSGCTL_TEST_KEYCHAIN=1 under scripts/with-keyring.sh, as CI runs them); the
 * deadline and the hand-over against sockets that misbehave, on any Linux.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeychainSecretStore, keychainService, launchNodeHelper, type HelperLauncher } from '../../src/cli/auth/keychain-store.js';
import { DirectReadTimeout } from '../../src/cli/auth/keychain-read.js';
import { chooseItem, readSecretServiceDirect, sessionBusSocket } from '../../src/cli/auth/secret-service-read.js';
import { SecretStoreUnavailableError, openSecretStore, type Env } from '../../src/cli/auth/secret-store.js';
import { againAfterKeyringRestart } from '../helpers/keyring.js';

const keychainWanted = process.env.MSGCTL_TEST_KEYCHAIN === '1';
const linux = process.platform === 'linux';

/** The real helper, counting how often a second Node was started. */
function countingHelper(): { launch: HelperLauncher; started: () => number } {
  let started = 0;
  return {
    launch: (request) => {
      started++;
      return launchNodeHelper(request);
    },
    started: () => started,
  };
}

describe('the session bus address', () => {
  it.each([
    ['unix:path=/run/user/1000/bus', '/run/user/1000/bus'],
    ['unix:abstract=/tmp/dbus-XYZ,guid=0123abcd', '\0/tmp/dbus-XYZ'],
    ['tcp:host=localhost,port=1234;unix:path=/tmp/with%20space', '/tmp/with space'],
    ['unix:path=/a,guid=1;unix:path=/b', '/a'],
  ])('%j is the socket %j', (address, socket) => {
    expect(sessionBusSocket({ DBUS_SESSION_BUS_ADDRESS: address })).toBe(socket);
  });

  it.each([undefined, '', 'tcp:host=localhost,port=1234', 'launchd:env=DBUS_LAUNCHD_SESSION_BUS_SOCKET', 'autolaunch:', 'unix:tmpdir=/tmp'])(
    '%j is not one this reader uses (the module finds its own)',
    (address) => {
      expect(sessionBusSocket({ DBUS_SESSION_BUS_ADDRESS: address })).toBeUndefined();
    },
  );
});

describe('what the search found decides', () => {
  it.each([
    [[], [], { secret: null }],
    [['/item/1'], [], '/item/1'],
    [['/item/1', '/item/2'], [], { handOver: 'more than one item matches' }],
    [[], ['/item/1'], { handOver: 'the item is locked' }],
    [['/item/1'], ['/item/2'], { handOver: 'the item is locked' }],
  ])('unlocked %j, locked %j: %j', (unlocked, locked, chosen) => {
    expect(chooseItem(unlocked, locked)).toEqual(chosen);
  });
});

describe.skipIf(!linux)('reading with a bus that misbehaves', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'msgctl-ssread-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a bus that accepts and never answers: the deadline ends the read, no second Node is started', async () => {
    const socketPath = join(dir, 'hung.sock');
    const server = net.createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const env: Env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${socketPath}` };
      await expect(readSecretServiceDirect(env, 'msgctl-test', 'default', 300)).rejects.toBeInstanceOf(DirectReadTimeout);

      const helper = countingHelper();
      const store = new KeychainSecretStore(env, 400, { launch: helper.launch, readDirect: undefined });
      const err = await store.get(`test-${randomUUID()}`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SecretStoreUnavailableError);
      expect((err as SecretStoreUnavailableError).reason).toContain('did not answer within 400 ms');
      expect(helper.started()).toBe(0);
    } finally {
      server.close();
    }
  });

  it('no socket, or one that hangs up: handed over, so the module says what is wrong as before', async () => {
    expect(await readSecretServiceDirect({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'none')}` }, 'msgctl-test', 'default', 2000)).toMatchObject({
      handOver: expect.stringContaining('ENOENT'),
    });
    const socketPath = join(dir, 'rude.sock');
    const server = net.createServer((socket) => socket.end('REJECTED EXTERNAL\r\n'));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      expect(await readSecretServiceDirect({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${socketPath}` }, 'msgctl-test', 'default', 2000)).toMatchObject({
        handOver: expect.stringContaining('refused to authenticate'),
      });
    } finally {
      server.close();
    }
  });
});

describe.runIf(keychainWanted && linux)('reading a real Secret Service in this process', () => {
  const env = process.env;
  const service = keychainService(env);

  it('reads what the keychain module stored, byte for byte, without a second Node', { timeout: 90_000 }, () =>
    againAfterKeyringRestart(async () => {
      const profile = `test-${randomUUID()}`;
      const writer = openSecretStore('keychain', env, { terminal: false });
      const secret = `sk_test_é✓ line1\nline2 ${'x'.repeat(3000)}`;
      await writer.set(profile, secret);
      try {
        expect(await readSecretServiceDirect(env, service, profile, 3000)).toEqual({ secret });
        const helper = countingHelper();
        const store = new KeychainSecretStore(env, 3000, { launch: helper.launch, readDirect: undefined });
        expect(await store.get(profile)).toBe(secret);
        expect(await store.get(`${profile}-absent`)).toBeNull();
        expect(helper.started()).toBe(0);
      } finally {
        await writer.delete(profile);
      }
      expect(await readSecretServiceDirect(env, service, profile, 3000)).toEqual({ secret: null });
    }));

});
