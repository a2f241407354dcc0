/**
 * The API has no list of imports (only GET /patient-imports/{id}), so for
 * completion msgctl remembers the last ids `imports create` made from this
 * machine, per base URL, in the state folder. Best effort: a file that cannot
 * be read or written means nothing to offer, never an error.
 */
import { join } from 'node:path';
import { stateDir } from '../config/paths.js';

type Env = Record<string, string | undefined>;
const KEPT = 20;

function file(env: Env): string {
  return join(stateDir(env), 'recent-imports.json');
}

async function readAll(env: Env): Promise<Record<string, string[]>> {
  const { readFile } = await import('node:fs/promises');
  try {
    const parsed: unknown = JSON.parse(await readFile(file(env), 'utf8'));
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
    const all = await readAll(env);
    const kept = [...[...ids].reverse(), ...(all[baseUrl] ?? []).filter((id) => !ids.includes(id))].slice(0, KEPT);
    all[baseUrl] = kept;
    const [{ mkdir }, { writeFileAtomic }] = await Promise.all([import('node:fs/promises'), import('../util/replace-file.js')]);
    await mkdir(stateDir(env), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file(env), JSON.stringify(all) + '\n', { mode: 0o600 });
  } catch {
    // Only completion reads it.
  }
}
