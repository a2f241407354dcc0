/**
 * macOS and Windows read the keychain in this process (keychain-in-process.ts):
 * the answer, the OS's reasons, the deadline, and, because a native read stuck
 * on an unanswered keychain dialog keeps its thread and Node waits for every
 * pool thread at exit, a process that still ends. The native read is faked
 * (there is no macOS or Windows keychain here); the stuck thread is real: a
 * read of a FIFO nobody writes blocks a libuv pool thread just the same.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { readKeychainInProcess } from '../../src/cli/auth/keychain-in-process.js';
import { DirectReadTimeout } from '../../src/cli/auth/keychain-read.js';
import { KeychainSecretStore, type HelperLauncher } from '../../src/cli/auth/keychain-store.js';
import { SecretStoreUnavailableError } from '../../src/cli/auth/secret-store.js';

const noHelper: HelperLauncher = () => {
  throw new Error('no second Node may be started for a read');
};

function storeReading(platform: NodeJS.Platform, read: Parameters<typeof readKeychainInProcess>[3], timeoutMs = 1000) {
  return new KeychainSecretStore({}, timeoutMs, {
    platform,
    launch: noHelper,
    readDirect: async ({ service, account, timeoutMs: ms }) => ({ secret: await readKeychainInProcess(service, account, ms, read) }),
  });
}

describe('keychain reads in this process (macOS, Windows)', () => {
  it('answers the secret, or null, with no second Node', async () => {
    expect(await storeReading('darwin', async () => 'sk_test_1').get('default')).toBe('sk_test_1');
    expect(await storeReading('win32', async () => null).get('default')).toBeNull();
  });

  it.each([
    ['darwin', 'User interaction is not allowed. (-25308)', 'login keychain is locked'],
    ['win32', 'A specified logon session does not exist. It may already have been terminated. (os error 1312)', 'Credential Manager'],
  ] as const)('%s: a keychain failure is explained for the OS', async (platform, raw, reason) => {
    const err = await storeReading(platform, async () => Promise.reject(new Error(raw))).get('default').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretStoreUnavailableError);
    expect((err as SecretStoreUnavailableError).reason).toContain(reason);
    expect((err as SecretStoreUnavailableError).message).toContain('Cannot read the stored credential');
  });

  it('gives up at the deadline and says what macOS may be waiting for', async () => {
    const started = Date.now();
    const err = await storeReading('darwin', () => new Promise(() => undefined), 300).get('default').catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect((err as SecretStoreUnavailableError).reason).toContain('did not answer within 300 ms');
    expect((err as SecretStoreUnavailableError).reason).toContain('allow "node" to use the keychain');
    await expect(readKeychainInProcess('s', 'a', 50, () => new Promise(() => undefined))).rejects.toBeInstanceOf(DirectReadTimeout);
  });

  it.skipIf(process.platform === 'win32')('a read stuck in a pool thread past the deadline does not keep the process from ending', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'msgctl-stuck-read-'));
    let child: ReturnType<typeof spawn> | undefined;
    try {
      const fifo = join(dir, 'never-written');
      await once(spawn('mkfifo', [fifo]), 'close');
      // The script a command would be: read (stuck), report the failure, exit as cli.ts does.
      const script = join(dir, 'stuck.mjs');
      await build({
        stdin: {
          contents: `
            import { readFile } from 'node:fs/promises';
            import { readKeychainInProcess } from './keychain-in-process.ts';
            try {
              await readKeychainInProcess('msgctl-test', 'default', 300, () => readFile(process.argv[2], 'utf8'));
            } catch (err) {
              process.stderr.write('error: ' + err.message + '\\n');
            }
            process.exitCode = 1;
            setImmediate(() => process.exit(1));
          `,
          resolveDir: fileURLToPath(new URL('../../src/cli/auth/', import.meta.url)),
          loader: 'ts',
        },
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: script,
        logLevel: 'silent',
      });
      await writeFile(join(dir, 'package.json'), '{"type":"module"}');
      child = spawn(process.execPath, [script, fifo], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      // Without the guard this never ends (process.exit joins the stuck thread): the test's own timeout says so.
      const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
      expect(stderr).toContain('did not answer in time');
      expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    } finally {
      if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
