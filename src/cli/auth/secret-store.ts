/**
 * Where a profile's secret (an API key, or an OAuth token set the caller has
 * serialised to JSON) is kept: the OS keychain, or, only when the user asked
 * for it with --insecure-storage, a 0600 file. product.md §2.
 */
import { isatty } from 'node:tty';
import { UsageError } from '../errors.js';
import { FileSecretStore } from './file-store.js';
import { KeychainSecretStore } from './keychain-store.js';
import type { Env, SecretStore, StorageKind } from './secret-store-types.js';
import { SplitTokenStore } from './token-entries.js';

export { SecretStoreUnavailableError } from './keychain-store.js';
export { CredentialsFileError } from './file-store.js';

export type { Env, SecretStore, StorageKind } from './secret-store-types.js';

export const DEFAULT_KEYCHAIN_TIMEOUT_MS = 3000;
/** At a terminal a person may have to answer a keychain dialog (macOS asks after every Node upgrade). */
export const TERMINAL_KEYCHAIN_TIMEOUT_MS = 60_000;
export const KEYCHAIN_TIMEOUT_ENV = 'MSGCTL_KEYCHAIN_TIMEOUT_MS';

/**
 * Opens the store for `kind`. The keychain timeout is, in order: opts.timeoutMs,
 * env MSGCTL_KEYCHAIN_TIMEOUT_MS, 60 s at a terminal, 3 s otherwise (cron must not
 * hang). It is counted from the moment the keychain helper is ready, not from its
 * start. `env` is also the environment the keychain is reached through
 * (DBUS_SESSION_BUS_ADDRESS on Linux).
 */
export function openSecretStore(
  kind: StorageKind,
  env: Env,
  opts: { timeoutMs?: number; terminal?: boolean; notify?: (message: string) => void } = {},
): SecretStore {
  if (kind === 'file') return new FileSecretStore(env, opts.notify);
  // isatty, not process.stdin.isTTY: the first touch of process.stdin opens a stream on fd 0 (a
  // socket for a pipe, as cron gives; for /dev/null, as a systemd timer gives, a file stream and
  // the modules behind it), 1.5-3 ms of every command that reads the keychain, for a question the
  // file descriptors answer.
  const terminal = opts.terminal ?? (isatty(0) && isatty(2));
  // Tokens in entries of their own, so each fits Windows Credential Manager (token-entries.ts).
  return new SplitTokenStore(new KeychainSecretStore(env, keychainTimeoutMs(env, opts.timeoutMs, terminal)));
}

export function keychainTimeoutMs(env: Env, explicit?: number, terminal = false): number {
  if (explicit !== undefined) {
    if (!Number.isInteger(explicit) || explicit <= 0) {
      throw new UsageError(`keychain timeout must be a positive whole number of milliseconds, got ${explicit}`);
    }
    return explicit;
  }
  const raw = env[KEYCHAIN_TIMEOUT_ENV]?.trim();
  if (!raw) return terminal ? TERMINAL_KEYCHAIN_TIMEOUT_MS : DEFAULT_KEYCHAIN_TIMEOUT_MS;
  // A typo here should not silently become "wait forever" or "never wait".
  if (!/^[1-9][0-9]*$/.test(raw)) {
    throw new UsageError(
      `${KEYCHAIN_TIMEOUT_ENV} must be a positive whole number of milliseconds, got '${raw}'`,
      [`Unset it to use the default of ${DEFAULT_KEYCHAIN_TIMEOUT_MS} ms.`],
    );
  }
  return Number(raw);
}
