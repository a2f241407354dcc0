/**
 * Non-secret configuration: profiles with their base URL, how their credential
 * is stored, and defaults. One JSON file under the XDG config directory,
 * rewritten atomically so a crash never leaves half a file.
 */
import { configFile } from './paths.js';
import { CliError, UsageError } from '../errors.js';

import { ownPath, readOwnText } from '../util/own-files.js';

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
  /** Colour on a terminal, below --color and the environment (NO_COLOR, CLICOLOR, FORCE_COLOR). */
  color?: 'auto' | 'always' | 'never';
  /** Pager for long terminal output, below MSGCTL_PAGER and PAGER; '' for none. */
  pager?: string;
  /** Zone a person reads times in, below MSGCTL_TIME_ZONE: 'local', 'organization' or an IANA name. */
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
    // Own keys only: `constructor` is not a profile because every object has one.
    return Object.hasOwn(this.data.profiles, name) ? this.data.profiles[name] : undefined;
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
    // Into the folder as checked and resolved once (util/own-files.ts): never through another user's link.
    await writeFileAtomic(ownPath(this.path, 'the config folder'), JSON.stringify(this.data, null, 2) + '\n', { mode: 0o600 });
  }
}

async function readConfig(path: string): Promise<ConfigData> {
  // Synchronously: a small file, and the first asynchronous fs call of a process starts
  // libuv's thread pool (four threads), a few ms of every command's start-up. Only a file
  // and folders no other user can change (util/own-files.ts): a planted config could send
  // the credential to any server. An administrator's root-owned config is fine.
  const text = readOwnText(path, 'the config file', { rootMayOwn: true });
  if (text === null) return { profiles: {} };
  try {
    const parsed = JSON.parse(text) as Partial<ConfigData>;
    return { ...parsed, profiles: parsed.profiles ?? {} };
  } catch (err) {
    throw new CliError(`Cannot read config file ${path}: ${(err as Error).message}`);
  }
}

/** --profile, then MSGCTL_PROFILE, then the config's default, then "default"; a name that is not plain is a usage error. */
export function chooseProfileName(flag: string | undefined, env: Env, config: ConfigStore): string {
  const name = flag || env.MSGCTL_PROFILE || config.defaultProfile || 'default';
  checkProfileName(name, flag ? '--profile' : env.MSGCTL_PROFILE ? 'MSGCTL_PROFILE' : `default_profile in ${config.path}`);
  return name;
}

/**
 * A profile name is a plain name: letters, digits, `.`, `_`, `-`, starting with a letter or
 * digit, at most 64 characters, and not a name every JavaScript object already has
 * (`constructor`, `toString`; `__proto__` starts with `_`). It names a key of the config,
 * of the credentials file and of the keychain: `__proto__` used to be "Stored" and then
 * found nowhere, and a path separator has no business in any of them.
 */
export function checkProfileName(name: string, namedBy: string): void {
  if (isProfileName(name)) return;
  throw new UsageError(`invalid profile name ${JSON.stringify(name)} (from ${namedBy}).`, [
    'A profile name has letters, digits, ".", "_" and "-" only, starts with a letter or digit, and is at most 64 characters, e.g. "work" or "clinic-2".',
  ]);
}

/** The rule checkProfileName enforces, as a test. */
export function isProfileName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) && !(name in Object.prototype);
}
