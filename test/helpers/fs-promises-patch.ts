/**
 * Replaces one function of node:fs/promises while a test file runs, for code that imports it
 * either way (`import { rename } from 'node:fs/promises'` sees it through
 * module.syncBuiltinESMExports()); put back after the file.
 *
 * Not vi.mock: a mocked module needs a worker of its own (a VM context per file, the `isolated`
 * project of vitest.config.ts: ~1.5 s of CPU per file to import src/ again); a patch works in the
 * shared workers. Each worker thread has its own builtins, so the other thread's files never see
 * it, and the files of this thread run one after another.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll } from 'vitest';

type FsPromises = typeof import('node:fs/promises');
const fsPromises = createRequire(import.meta.url)('node:fs/promises') as FsPromises;

export function patchFsPromises<K extends keyof FsPromises>(name: K, replacement: (real: FsPromises[K]) => FsPromises[K]): void {
  const real = fsPromises[name];
  beforeAll(() => {
    (fsPromises as Record<K, FsPromises[K]>)[name] = replacement(real);
    syncBuiltinESMExports();
  });
  afterAll(() => {
    (fsPromises as Record<K, FsPromises[K]>)[name] = real;
    syncBuiltinESMExports();
  });
}
