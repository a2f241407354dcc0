import { defineConfig } from 'vitest/config';

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
