import { defineConfig } from 'vitest/config';

// Vite cannot load modules from a folder whose path contains `#` (it reads it as a URL fragment;
// vitejs/vite#6763). scripts/test.mjs (`npm test`) then runs vitest through a symlink without the
// `#` and sets MSGCTL_TEST_ROOT_LINK; module paths must stay on the link's side of it.
const viaLink = Boolean(process.env.MSGCTL_TEST_ROOT_LINK);
if (!viaLink && import.meta.dirname.includes('#')) {
  throw new Error(`vitest cannot run from ${import.meta.dirname} (a "#" in the path): use \`npm test\`, which runs it through a link without one.`);
}

export default defineConfig({
  resolve: { preserveSymlinks: viaLink },
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
