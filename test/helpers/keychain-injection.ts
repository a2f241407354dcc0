/**
 * Puts a test's own keychain in place of the OS one for every store the CLI opens
 * (credentials.ts, login, logout) while a test file runs; file stores stay real.
 *
 * A spy on secret-store.js's export, not vi.mock: a mocked module needs a worker of its own
 * (a VM context per file, in the `isolated` project of vitest.config.ts: ~1.5 s of CPU per file to
 * import src/ again), while a spy works in the shared workers, where the module is already loaded
 * and callers look the export up when they call it (credentials.ts imports the module when it
 * needs a store). The spy is removed after the file, so the files after it get the real function.
 */
import { afterAll, beforeAll, vi } from 'vitest';
import * as secretStoreModule from '../../src/cli/auth/secret-store.js';
import type { SecretStore } from '../../src/cli/auth/secret-store.js';

/** While `holder.store` is set, each keychain store opened is what it returns. */
export function injectKeychainStore(): { store: (() => SecretStore) | undefined } {
  const holder: { store: (() => SecretStore) | undefined } = { store: undefined };
  const real = secretStoreModule.openSecretStore;
  beforeAll(() => {
    vi.spyOn(secretStoreModule, 'openSecretStore').mockImplementation((...args: Parameters<typeof real>) =>
      args[0] === 'keychain' && holder.store ? holder.store() : real(...args),
    );
  });
  afterAll(() => {
    vi.mocked(secretStoreModule.openSecretStore).mockRestore();
    holder.store = undefined;
  });
  return holder;
}
