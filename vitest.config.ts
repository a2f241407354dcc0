import { defineConfig } from 'vitest/config';

// Vite cannot load modules from a folder whose path contains `#` (it reads it as a URL fragment;
// vitejs/vite#6763). scripts/test.mjs (`npm test`) then runs vitest through a symlink without the
// `#` and sets MSGCTL_TEST_ROOT_LINK; module paths must stay on the link's side of it.
const viaLink = Boolean(process.env.MSGCTL_TEST_ROOT_LINK);
if (!viaLink && import.meta.dirname.includes('#')) {
  throw new Error(`vitest cannot run from ${import.meta.dirname} (a "#" in the path): use \`npm test\`, which runs it through a link without one.`);
}

const SHARED = ['test/unit/**/*.test.ts', 'test/sandbox/**/*.test.ts', 'test/cli/**/*.test.ts'];
/** Files that vi.mock a module: a shared worker would hand the mock to the files after them. */
const MOCKING = ['test/unit/config-busy.test.ts', 'test/unit/secret-store.test.ts', 'test/unit/token-entries.test.ts'];

/** What both projects share (not inherited with `extends`, which would run the global set-up, a build, once per project). */
const project = (name: string, include: string[], extra: { exclude?: string[]; isolate?: boolean } = {}) => ({
  resolve: { preserveSymlinks: viaLink },
  test: {
    name,
    include,
    ...extra,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks' as const,
    // Every test process (and every msgctl it spawns with this env) uses its own keychain
    // service name, so no test reads, overwrites or deletes a developer's real msgctl
    // entries on macOS or Windows, where there is no throwaway keychain to point at.
    env: { MSGCTL_KEYCHAIN_SERVICE: 'msgctl-test' },
  },
});

export default defineConfig({
  resolve: { preserveSymlinks: viaLink },
  test: {
    // Builds the CLI once per run for the end-to-end tests (MSGCTL_TEST_BIN).
    globalSetup: ['test/helpers/global-setup.ts'],
    // Two cores: keep end-to-end files from starving each other's sandboxes.
    maxWorkers: 2,
    projects: [
      // Logic and in-process commands share their worker's modules from file to file: importing
      // src/ (sandbox, CLI) again for each of ~100 files cost more than the tests themselves
      // (test/unit and test/sandbox on 2 loaded cores: 105 s isolated, 37 s shared). These files
      // leave no state behind: each starts its own sandbox and passes its env explicitly.
      project('shared', SHARED, { exclude: MOCKING, isolate: false }),
      // Real processes, and the files that replace a module (vi.mock), get a fresh worker each.
      project('isolated', ['test/e2e/**/*.test.ts', ...MOCKING]),
    ],
  },
});
