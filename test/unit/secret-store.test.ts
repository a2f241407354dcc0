import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insecureCredentialsFile } from '../../src/cli/config/paths.js';
import { UsageError } from '../../src/cli/errors.js';
import { explainKeychainFailure, keychainService } from '../../src/cli/auth/keychain-store.js';
import {
  CredentialsFileError,
  SecretStoreUnavailableError,
  keychainTimeoutMs,
  openSecretStore,
  type Env,
} from '../../src/cli/auth/secret-store.js';
import { patchFsPromises } from '../helpers/fs-promises-patch.js';

// Lets one test make the final rename fail, to see what a crash mid-write leaves.
const failRename = { next: false };
patchFsPromises('rename', (real) => async (from, to) => {
  if (failRename.next) {
    failRename.next = false;
    throw Object.assign(new Error('simulated crash before rename'), { code: 'EIO' });
  }
  return real(from, to);
});

const posixOnly = process.platform === 'win32';
let home: string;
let env: Env;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'msgctl-secret-store-'));
  env = { HOME: home };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('file store (--insecure-storage)', () => {
  it('round-trips secrets per profile and deletes them', async () => {
    const store = openSecretStore('file', env);
    expect(store.kind).toBe('file');
    expect(await store.get('default')).toBeNull();

    await store.set('default', 'key-one');
    await store.set('clinic-b', '{"access_token":"t","refresh_token":"r"}');
    await store.set('default', 'key-two');
    expect(await store.get('default')).toBe('key-two');
    expect(await store.get('clinic-b')).toBe('{"access_token":"t","refresh_token":"r"}');
    expect(await store.get('other')).toBeNull();

    expect(await store.delete('default')).toBe(true);
    expect(await store.delete('default')).toBe(false);
    expect(await store.get('default')).toBeNull();
    expect(await store.get('clinic-b')).not.toBeNull();
  });

  it('removes the file when the last secret is deleted', async () => {
    const store = openSecretStore('file', env);
    await store.set('default', 'k');
    expect(await store.delete('default')).toBe(true);
    await expect(stat(insecureCredentialsFile(env))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('treats odd profile names as plain keys', async () => {
    const store = openSecretStore('file', env);
    await store.set('__proto__', 'p');
    await store.set('constructor', 'c');
    expect(await store.get('__proto__')).toBe('p');
    expect(await store.get('constructor')).toBe('c');
    expect(await store.get('toString')).toBeNull();
  });

  it.skipIf(posixOnly)('writes the file 0600 in a 0700 directory, whatever the umask', async () => {
    const previous = process.umask(0o000);
    try {
      await openSecretStore('file', env).set('default', 'k');
    } finally {
      process.umask(previous);
    }
    const path = insecureCredentialsFile(env);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(path))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ default: 'k' });
  });

  it('replaces the file by rename and leaves no temp file behind', async () => {
    const store = openSecretStore('file', env);
    const path = insecureCredentialsFile(env);
    await store.set('default', 'k1');
    const before = await stat(path);
    await store.set('default', 'k2');
    // A new inode: the old file was never truncated and rewritten in place.
    expect((await stat(path)).ino).not.toBe(before.ino);
    expect(await readdir(dirname(path))).toEqual(['credentials.json']);
  });

  it('keeps the previous file intact when the write fails before the rename', async () => {
    const store = openSecretStore('file', env);
    const path = insecureCredentialsFile(env);
    await store.set('default', 'old');
    failRename.next = true;
    await expect(store.set('default', 'new')).rejects.toThrow('simulated crash');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ default: 'old' });
    expect(await readdir(dirname(path))).toEqual(['credentials.json']);
  });

  it.skipIf(posixOnly)('refuses a file others can read, with the chmod fix, and leaves it alone', async () => {
    const path = insecureCredentialsFile(env);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify({ default: 'leaked-key' }));
    await chmod(path, 0o644);
    const store = openSecretStore('file', env);

    const err = await store.get('default').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialsFileError);
    const refusal = err as CredentialsFileError;
    expect(refusal.message).toContain(path);
    expect(refusal.message).toContain('0644');
    expect(refusal.message).not.toContain('leaked-key');
    expect(refusal.hints).toContain(`Make it readable only by you: chmod 600 ${path}`);
    expect(refusal.exitCode).toBe(1);

    await expect(store.set('default', 'k')).rejects.toBeInstanceOf(CredentialsFileError);
    await expect(store.delete('default')).rejects.toBeInstanceOf(CredentialsFileError);
    expect((await stat(path)).mode & 0o777).toBe(0o644);

    await chmod(path, 0o600);
    expect(await store.get('default')).toBe('leaked-key');
  });

  it.skipIf(posixOnly)('also refuses a group-writable file', async () => {
    const path = insecureCredentialsFile(env);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '{}');
    await chmod(path, 0o620);
    await expect(openSecretStore('file', env).get('default')).rejects.toBeInstanceOf(CredentialsFileError);
  });

  it('rejects a damaged file without echoing its content', async () => {
    const path = insecureCredentialsFile(env);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '{"default": "sk_live_secret', { mode: 0o600 });
    const err = await openSecretStore('file', env).get('default').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialsFileError);
    expect((err as Error).message).not.toContain('sk_live_secret');
  });

  it('describes itself with a ~ path and the mode', () => {
    expect(openSecretStore('file', env).describe()).toBe('file ~/.config/msgctl/credentials.json (0600)');
  });
});

describe('keychain timeout setting', () => {
  it('defaults to 3000 ms, then env, then the explicit option', () => {
    expect(keychainTimeoutMs({})).toBe(3000);
    expect(keychainTimeoutMs({ MSGCTL_KEYCHAIN_TIMEOUT_MS: '750' })).toBe(750);
    expect(keychainTimeoutMs({ MSGCTL_KEYCHAIN_TIMEOUT_MS: '750' }, 200)).toBe(200);
  });

  it('rejects a malformed value instead of guessing', () => {
    expect(() => keychainTimeoutMs({ MSGCTL_KEYCHAIN_TIMEOUT_MS: '3s' })).toThrow(UsageError);
    expect(() => keychainTimeoutMs({ MSGCTL_KEYCHAIN_TIMEOUT_MS: '0' })).toThrow(UsageError);
    expect(() => keychainTimeoutMs({}, -1)).toThrow(UsageError);
  });
});

describe('keychain failure reasons', () => {
  // Messages as the library reported them in these situations, by experiment.
  it.each([
    ['Platform failure: DBus error: Failed to connect to socket /nonexistent: No such file or directory', 'no session D-Bus is reachable'],
    ['Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead', 'no session D-Bus is reachable'],
    ['Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files', 'no Secret Service is running on the session D-Bus'],
    ["Couldn't access platform storage: Secret Service: unlock prompt was dismissed", 'the keyring is locked'],
    ["Couldn't access platform storage: Secret Service: no result found", 'has no default keyring'],
    ['Platform failure: DBus error: Did not receive a reply. Possible causes include: …', 'did not answer in time'],
  ])('%s', (raw, reason) => {
    const explained = explainKeychainFailure(raw, 'linux');
    expect(explained).toContain(reason);
    expect(explained).toContain(raw);
  });
});

/** Processes whose command line mentions `marker` (the keychain helper carries the profile name). */
async function processesMentioning(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) found.push(cmdline);
  }
  return found;
}

/** Whether the Linux kernel keyring holds msgctl/<profile>, asked without the store's pinning. */
function kernelKeyringHolds(profile: string): Promise<string> {
  const modulePath = createRequire(import.meta.url).resolve('@napi-rs/keyring');
  const probe = `
    const { AsyncEntry } = require(process.argv[1]);
    new AsyncEntry(process.argv[3], process.argv[2], { linux: { store: 'keyutils' } }).getPassword()
      .then((v) => console.log(v === null ? 'absent' : 'PRESENT'), (e) => console.log('unusable: ' + e.message));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', probe, modulePath, profile, keychainService(process.env)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out.trim()));
  });
}

// Linux only: "no keychain" is made by pointing D-Bus at nothing, which macOS and Windows ignore.
describe.skipIf(process.platform !== 'linux')('keychain store with no Secret Service', () => {
  const noBus = (): Env => ({ ...process.env, HOME: home, XDG_CONFIG_HOME: undefined, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });

  it('fails to store, says why, gives both ways out, and stores nothing anywhere', async () => {
    const profile = `test-${randomUUID()}`;
    const store = openSecretStore('keychain', noBus(), { timeoutMs: 3000 });
    expect(store.kind).toBe('keychain');

    const err = await store.set(profile, 'sk_test_never_stored').catch((e: unknown) => e);

    expect(err).toBeInstanceOf(SecretStoreUnavailableError);
    // It failed for the missing bus, at once: not by running into its 3 s deadline (which a clock
    // would have to tell apart from a loaded machine's slow start).
    expect((err as SecretStoreUnavailableError).reason).not.toMatch(/did not answer within/);
    const unavailable = err as SecretStoreUnavailableError;
    expect(unavailable.exitCode).toBe(1);
    expect(unavailable.message).toContain('Cannot store the credential in the OS keychain');
    expect(unavailable.reason).toContain('no session D-Bus is reachable');
    expect(unavailable.reason).toContain('/nonexistent');
    expect(unavailable.message).not.toContain('sk_test_never_stored');
    const hints = unavailable.hints.join('\n');
    expect(hints).toContain('MSGCTL_API_KEY');
    expect(hints).toContain('MSGCTL_TOKEN');
    expect(hints).toContain('--insecure-storage');

    // Not silently written to the fallback file…
    await expect(stat(dirname(insecureCredentialsFile(noBus())))).rejects.toMatchObject({ code: 'ENOENT' });
    // …nor to the kernel keyring (where it is usable at all; containers often forbid it).
    if (process.platform === 'linux') expect(await kernelKeyringHolds(profile)).not.toBe('PRESENT');
    // …and reading it back is the same clear error, not a "no credential".
    await expect(store.get(profile)).rejects.toBeInstanceOf(SecretStoreUnavailableError);
  });

  it('fails reads and deletes the same way, naming the action', async () => {
    const store = openSecretStore('keychain', noBus());
    await expect(store.get('default')).rejects.toThrow('Cannot read the stored credential from the OS keychain');
    await expect(store.delete('default')).rejects.toThrow('Cannot remove the credential from the OS keychain');
  });

  it.skipIf(process.platform !== 'linux')('gives up on a hung D-Bus at the deadline and kills the helper', async () => {
    // A socket that accepts connections and never answers: the native library
    // would block on it indefinitely.
    const socketPath = join(home, 'hung-bus.sock');
    const server = net.createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const profile = `test-${randomUUID()}`;
      const store = openSecretStore('keychain', { ...noBus(), DBUS_SESSION_BUS_ADDRESS: `unix:path=${socketPath}`, MSGCTL_KEYCHAIN_TIMEOUT_MS: '1200' });
      const started = Date.now();
      const pending = store.set(profile, 'sk_test_hung').catch((e: unknown) => e);

      // The helper, once it has started (however long a loaded machine takes to start a Node).
      await expect.poll(async () => (await processesMentioning(profile)).length, { timeout: 15_000, interval: 20 }).toBe(1);
      const helpers = await processesMentioning(profile);
      // The secret travels on stdin, never in a command line `ps` can show.
      expect(helpers[0]).not.toContain('sk_test_hung');

      const err = await pending;
      expect(err).toBeInstanceOf(SecretStoreUnavailableError);
      expect((err as SecretStoreUnavailableError).reason).toContain('did not answer within 1200 ms');
      // The deadline runs from when the helper is ready, so the store gave up no sooner than that after the
      // start; that it gave up at all is the answer above (a hung bus would otherwise wait forever).
      expect(Date.now() - started).toBeGreaterThanOrEqual(1150);
      // Killed, not left behind.
      await expect.poll(async () => (await processesMentioning(profile)).length, { timeout: 10_000, interval: 20 }).toBe(0);
    } finally {
      server.close();
    }
  });
});
