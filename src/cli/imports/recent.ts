/**
 * The API has no list of imports (only GET /patient-imports/{id}), so for
 * completion msgctl remembers the last ids `imports create` made from this
 * machine, per base URL, in the state folder. Best effort: a file that cannot
 * be read or written means nothing to offer, never an error. It is read and
 * written under the rules of every file msgctl keeps (util/own-files.ts): one
 * another local user planted or could swap is neither read nor written through.
 */
import { join } from 'node:path';
import { stateDir } from '../config/paths.js';
import { ownPath, readOwnText } from '../util/own-files.js';

type Env = Record<string, string | undefined>;
const KEPT = 20;

function file(env: Env): string {
  return join(stateDir(env), 'recent-imports.json');
}

async function readAll(env: Env): Promise<Record<string, string[]>> {
  try {
    const text = readOwnText(file(env), 'the list of recent imports');
    if (text === null) return {};
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string[]>) : {};
  } catch {
    return {};
  }
}

/** Newest first. */
export async function recentImports(env: Env, baseUrl: string): Promise<string[]> {
  const ids = (await readAll(env))[baseUrl];
  return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : [];
}

export async function rememberImports(env: Env, baseUrl: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    // ownPath makes the folder (0700) and checks it: the write goes to the folder as resolved once.
    const path = ownPath(file(env), 'the state folder');
    const [{ writeFileAtomic }, { withFileLock }] = await Promise.all([import('../util/replace-file.js'), import('../config/file-lock.js')]);
    // Read, change and write under a lock: two imports finishing together (two cron jobs) each kept
    // the list as it was before the other's id, and the last write lost the first's.
    await withFileLock(`${path}.lock`, async () => {
      const all = await readAll(env);
      all[baseUrl] = [...[...ids].reverse(), ...(all[baseUrl] ?? []).filter((id) => !ids.includes(id))].slice(0, KEPT);
      await writeFileAtomic(path, JSON.stringify(all) + '\n', { mode: 0o600 });
    }, { waitMs: 5_000 });
  } catch {
    // Only completion reads it.
  }
}
