import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { defineConfig } from 'vitest/config';

// Vite cannot load modules from a folder whose path contains `#` (it reads it as a URL fragment;
// vitejs/vite#6763). scripts/test.mjs (`npm test`) then runs vitest through a symlink without the
// `#` and sets MSGCTL_TEST_ROOT_LINK; module paths must stay on the link's side of it.
const viaLink = Boolean(process.env.MSGCTL_TEST_ROOT_LINK);
if (!viaLink && import.meta.dirname.includes('#')) {
  throw new Error(`vitest cannot run from ${import.meta.dirname} (a "#" in the path): use \`npm test\`, which runs it through a link without one.`);
}

/** The folders whose files share worker threads (project `shared`), less OWN_MODULES below. */
const SHARED_FOLDERS = ['test/unit', 'test/sandbox', 'test/cli'];

/** The test files of those folders, as paths from the checkout, with their text. */
const SHARED_FILES = SHARED_FOLDERS.flatMap((folder) =>
  readdirSync(join(import.meta.dirname, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => ({ path: `${folder}/${file.split(sep).join('/')}`, text: readFileSync(join(import.meta.dirname, folder, file), 'utf8') })),
);

/**
 * Files of those folders that cannot share a worker's modules with the files before them: every
 * file that replaces a module with vi.mock (in a shared worker the module is already loaded, so
 * the mock would miss it or reach the files after it), found by reading the files so a new one
 * cannot slip in. None today: test/helpers/keychain-injection.ts and fs-promises-patch.ts do what
 * such mocks did, in the shared workers (a VM context per file cost ~1.5 s of CPU each).
 */
const OWN_MODULES = SHARED_FILES.filter((file) => /\bvi\.(?:do)?mock\s*[<(]/.test(file.text)).map((file) => file.path);

/**
 * Files of those folders that change what only a process's main thread may (process.umask,
 * process.chdir): they run in the end-to-end files' worker processes. (A command run in another
 * folder needs a process of its own: it goes in test/e2e.) Both lists read the test files only:
 * a helper that mocks or changes the folder must be used from test/e2e.
 */
const OWN_PROCESS = SHARED_FILES.filter((file) => /\bprocess\.(?:umask|chdir)\(/.test(file.text)).map((file) => file.path);

/** What the projects share (not inherited with `extends`, which would run the global set-up, a build, once per project). */
const project = (name: string, include: string[], extra: { exclude?: string[]; pool?: 'threads' | 'forks' | 'vmForks' } = {}) => ({
  resolve: { preserveSymlinks: viaLink },
  test: {
    name,
    include,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks' as 'threads' | 'forks' | 'vmForks',
    // Every test process (and every msgctl it spawns with this env) uses its own keychain
    // service name, so no test reads, overwrites or deletes a developer's real msgctl
    // entries on macOS or Windows, where there is no throwaway keychain to point at.
    env: { MSGCTL_KEYCHAIN_SERVICE: 'msgctl-test' },
    ...extra,
  },
});

export default defineConfig({
  resolve: { preserveSymlinks: viaLink },
  test: {
    // Builds the CLI once per run for the end-to-end tests (MSGCTL_TEST_BIN).
    globalSetup: ['test/helpers/global-setup.ts'],
    // Two cores: keep end-to-end files from starving each other's sandboxes (3 or 4 threads
    // measured slower on this 2-core machine: 173 s and 179 s against 167 s for 2).
    maxWorkers: 2,
    // vitest keeps one pool per kind for all projects and reads `isolate` from the root, not from a
    // project (a project's own `isolate: false` is ignored: once, every file got a fresh process).
    // So each project below has a pool of its own kind, set here. As many threads at least as at
    // most: tinypool ends idle threads above the minimum, and ending one failed a run with
    // "Terminating worker thread" (vitest-dev/vitest#8564).
    poolOptions: { threads: { isolate: false, minThreads: 2, maxThreads: 2 }, forks: { isolate: false } },
    projects: [
      // Logic, sandbox and in-process command files share their worker thread's modules from
      // file to file: starting a process and importing src/ (sandbox, CLI) again for each of
      // ~100 files cost more than most files' tests (those 99 files on 2 loaded cores: 110 s a
      // process each, 40 s shared; the whole suite 240 s -> 167 s). No file leaves state behind:
      // each starts its own sandbox, passes its env explicitly and puts back what it fakes
      // (process.platform, Date.now, a node:fs/promises function, the keychain: test/helpers/
      // fs-promises-patch.ts and keychain-injection.ts, put back after the file).
      project('shared', SHARED_FOLDERS.map((folder) => `${folder}/**/*.test.ts`), { exclude: [...OWN_MODULES, ...OWN_PROCESS], pool: 'threads' }),
      // End-to-end files share two worker processes in the same way (forks, not isolating): their
      // commands run in processes of their own anyway, and a fresh worker per file (a process
      // start and an import of the sandbox and helpers) cost ~0.85 s of CPU each. Paired runs of
      // the suite, a fresh process per end-to-end file against this: 181 -> 163 s, 190 -> 165 s.
      // (In the shared threads they were no faster, and in 2 of 4 shuffled runs the throwaway
      // keyring lost its default collection part-way.)
      // The files that need the process (umask, chdir) run in these workers too, in this project:
      // vitest starts fresh workers between projects, so a project of their own cost another
      // process and another import of src/.
      project('e2e', ['test/e2e/**/*.test.ts', ...OWN_PROCESS.filter((file) => !OWN_MODULES.includes(file))]),
      // The files that cannot share modules get fresh ones, each in a VM context of its own, in
      // worker processes (only when there are some: an empty project only adds a line to the output).
      ...(OWN_MODULES.length > 0 ? [project('isolated', OWN_MODULES, { pool: 'vmForks' })] : []),
    ],
  },
});
