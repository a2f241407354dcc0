/**
 * `--data FILE`: load state at start, save it after changes. Writes go to a
 * temp file in the same directory, are fsynced, then renamed over the old
 * file, so a crash leaves either the old or the new state, never half a file.
 */
import { open, readFile, rename } from 'node:fs/promises';
import type { SandboxStore } from './store.js';

export async function loadSnapshot(file: string): Promise<Parameters<SandboxStore['restore']>[0] | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`Cannot load sandbox data ${file}: ${(err as Error).message}`);
  }
}

export async function writeSnapshotAtomically(file: string, data: unknown): Promise<void> {
  // The directory must exist already: creating paths (recursively, anywhere) is not the sandbox's job.
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(data));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
}

/** Saves at most every `delayMs` while changes keep coming; `flush` saves now. */
export function persistOnChange(store: SandboxStore, file: string, delayMs = 200) {
  let timer: NodeJS.Timeout | null = null;
  let saving: Promise<void> = Promise.resolve();
  const save = () => {
    timer = null;
    saving = saving.then(() => writeSnapshotAtomically(file, store.snapshot())).catch((err) => {
      process.stderr.write(`sandbox: could not save ${file}: ${(err as Error).message}\n`);
    });
  };
  const stop = store.onChange(() => {
    timer ??= setTimeout(save, delayMs);
  });
  return {
    async flush() {
      if (timer) {
        clearTimeout(timer);
        save();
      }
      await saving;
    },
    stop,
  };
}
