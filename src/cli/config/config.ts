/**
 * Non-secret configuration: profiles with their base URL, how their credential
 * is stored, and defaults. One JSON file under the XDG config directory,
 * rewritten atomically so a crash never leaves half a file.
 */
import { configFile } from './paths.js';
import { CliError } from '../errors.js';

// Not `import … from 'node:fs'`: that ESM facade loads Node's fs streams, which a
// command that only reads its config never needs (start-up; see bin/code-cache.js).
const { readFileSync } = process.getBuiltinModule('node:fs');

export type CredentialKind = 'api_key' | 'oauth';

export interface ProfileConfig {
  base_url?: string;
  /** Where this profile's secret lives; absent when none is stored. */
  credential?: { kind: CredentialKind; storage: 'keychain' | 'file'; name?: string };
  /** Default clinic number for sends (E.164). */
  default_from?: string;
  /** Default region for phone numbers without a country code (ISO 3166 alpha-2). */
  region?: string;
  /** OAuth app client id, for `msgctl login`. */
  client_id?: string;
  /** Scopes of the OAuth session (space-separated); not a secret, so not in the keychain. */
  scope?: string;
  /** Root of the OAuth server ({auth_url}), when it is not the API's origin. */
  auth_url?: string;
  organization?: { id: string; name: string };
  /** How numeric dates such as 03/02/1969 are read (util/date-order.ts); absent: from `region`, else never guessed. */
  date_order?: 'day-first' | 'month-first';
  /** Colour on a terminal: auto (default), always, never. */
  color?: 'auto' | 'always' | 'never';
  /** Pager for long terminal output; '' means none. */
  pager?: string;
  /** Zone times are shown in: local (default), organization, or an IANA name. */
  time_zone?: string;
}

export interface ConfigData {
  default_profile?: string;
  profiles: Record<string, ProfileConfig>;
}

type Env = Record<string, string | undefined>;

export class ConfigStore {
  private constructor(
    readonly path: string,
    private data: ConfigData,
  ) {}

  static async load(env: Env): Promise<ConfigStore> {
    const path = configFile(env);
    // Windows: read an older msgctl's config from its old folder, once (src/config/migrate.ts).
    if (process.platform === 'win32') await (await import('./migrate.js')).migrateLegacyConfig(env);
    return new ConfigStore(path, await readConfig(path));
  }

  get defaultProfile(): string | undefined {
    return this.data.default_profile;
  }

  profile(name: string): ProfileConfig | undefined {
    return this.data.profiles[name];
  }

  profileNames(): string[] {
    return Object.keys(this.data.profiles);
  }

  /** Merges fields into a profile (creating it); `undefined` values delete keys. */
  async updateProfile(name: string, patch: Partial<ProfileConfig>): Promise<ProfileConfig> {
    return this.modify((data) => {
      const next: ProfileConfig = { ...data.profiles[name] };
      for (const [k, v] of Object.entries(patch) as [keyof ProfileConfig, unknown][]) {
        if (v === undefined) delete next[k];
        else (next as Record<string, unknown>)[k] = v;
      }
      data.profiles[name] = next;
      return next;
    });
  }

  async setDefaultProfile(name: string): Promise<void> {
    await this.modify((data) => {
      data.default_profile = name;
    });
  }

  /**
   * Read, change, write, under the config lock: another msgctl (a parallel cron
   * job, a sandbox writing its profile, a login) may be saving at the same time,
   * and its change must neither be overwritten by a stale copy nor overwrite ours.
   */
  private async modify<T>(change: (data: ConfigData) => T): Promise<T> {
    // Loaded only to write: reading the config needs no lock, and node:fs/promises costs start-up.
    const { withFileLock } = await import('./file-lock.js');
    return withFileLock(`${this.path}.lock`, async () => {
      this.data = await readConfig(this.path);
      const result = change(this.data);
      await this.save();
      return result;
    });
  }

  private async save(): Promise<void> {
    // Temp file + flush + replace, retried while Windows reports the file busy (src/util/replace-file.ts).
    const { writeFileAtomic } = await import('../util/replace-file.js');
    await writeFileAtomic(this.path, JSON.stringify(this.data, null, 2) + '\n', { mode: 0o600 });
  }
}

async function readConfig(path: string): Promise<ConfigData> {
  try {
    // Synchronously: a small file, and the first asynchronous fs call of a process starts
    // libuv's thread pool (four threads), a few ms of every command's start-up.
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConfigData>;
    return { ...parsed, profiles: parsed.profiles ?? {} };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new CliError(`Cannot read config file ${path}: ${(err as Error).message}`);
  }
}

/** --profile, then MSGCTL_PROFILE, then the config's default, then "default". */
export function chooseProfileName(flag: string | undefined, env: Env, config: ConfigStore): string {
  return flag || env.MSGCTL_PROFILE || config.defaultProfile || 'default';
}
