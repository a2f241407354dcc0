/**
 * Windows Credential Manager as the keychain module sees it, for tests on any
 * OS: entries by account, refusing what Windows refuses (more than 2,560 bytes
 * per entry, a secret counted as UTF-16), and a logon-session failure on
 * demand. store() is msgctl's own keychain store for Windows over it.
 */
import { KeychainSecretStore, type HelperLauncher, type HelperReply } from '../../src/cli/auth/keychain-store.js';
import type { SecretStore } from '../../src/cli/auth/secret-store.js';
import { SplitTokenStore } from '../../src/cli/auth/token-entries.js';

const LIMIT_BYTES = 2560;

/** Credential Manager as the keychain module sees it: entries by account, and its refusals. */
export class FakeCredentialManager {
  readonly entries = new Map<string, string>();
  writes = 0;
  /** Fail the write with this number (1 = the next one) as a logon session without Credential Manager does. */
  failWriteNumber: number | null = null;

  launch: HelperLauncher = ({ op, account, secret }) => {
    const answer = Promise.resolve().then((): HelperReply => {
      if (op === 'get') return { ok: true, value: this.entries.get(account) ?? null };
      if (op === 'delete') return { ok: true, value: this.entries.delete(account) };
      this.writes++;
      if (this.failWriteNumber !== null && this.writes === this.failWriteNumber) {
        return { ok: false, message: 'A specified logon session does not exist. It may already have been terminated. (os error 1312)' };
      }
      if (Buffer.byteLength(secret!, 'utf16le') > LIMIT_BYTES) return { ok: false, message: `Attribute 'password' is longer than platform limit of ${LIMIT_BYTES} chars` };
      this.entries.set(account, secret!);
      return { ok: true, value: null };
    });
    return { ready: Promise.resolve(), answer, kill: () => undefined };
  };

  /** msgctl's store for Windows, as openSecretStore makes it, over this fake. */
  store(): SecretStore {
    return new SplitTokenStore(
      new KeychainSecretStore({}, 1000, {
        platform: 'win32',
        launch: this.launch,
        readDirect: async ({ account }) => ({ secret: this.entries.get(account) ?? null }),
      }),
    );
  }
}

