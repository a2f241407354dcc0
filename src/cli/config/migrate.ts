/**
 * Moving an older msgctl's files to today's location, once: on Windows, 0.1
 * kept config.json and credentials.json in %USERPROFILE%\.config\msgctl; they
 * now live in %APPDATA%\msgctl and, for credentials.json, %LOCALAPPDATA%\msgctl
 * (src/config/paths.ts). Copied, not moved, so a failure half-way loses nothing;
 * the old folder is left for the user to delete.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { currentLocations, type Locations } from './paths.js';

type Env = Record<string, string | undefined>;


/** True when something was copied. Never overwrites a file already in the new place. */
export async function migrateLegacyConfig(env: Env, where: Locations = currentLocations(env)): Promise<boolean> {
  const from = where.legacyConfigDir;
  const to = where.configDir;
  if (!from || from === to) return false;
  if (await exists(join(to, 'config.json'))) return false;
  if (!(await exists(join(from, 'config.json')))) return false;
  for (const [name, dir] of [['config.json', to], ['credentials.json', where.secretsDir]] as const) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await copyFile(join(from, name), join(dir, name), constants.COPYFILE_EXCL).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT' && err.code !== 'EEXIST') throw err;
    });
  }
  return true;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
