import { defineConfig } from 'vitest/config';

// Vite (under vitest) cannot load modules from a folder whose path contains `#` (it reads it
// as a URL fragment; vitejs/vite#6763, "expected"). msgctl itself builds and runs from such a
// path (test/e2e/build-path.test.ts); the test runner does not, so say so instead of failing
// with "Cannot find module '/@vite/env'".
if (import.meta.dirname.includes('#')) {
  throw new Error(`The tests cannot run from ${import.meta.dirname}: vitest does not support a "#" in the folder path. Clone or move the checkout to a path without "#".`);
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two cores: keep end-to-end files from starving each other's sandboxes.
    maxWorkers: 2,
    // Every test process (and every msgctl it spawns with this env) uses its own keychain
    // service name, so no test reads, overwrites or deletes a developer's real msgctl
    // entries on macOS or Windows, where there is no throwaway keychain to point at.
    env: { MSGCTL_KEYCHAIN_SERVICE: 'msgctl-test' },
  },
});
