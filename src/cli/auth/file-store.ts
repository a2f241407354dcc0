/**
 * The explicit --insecure-storage fallback: a JSON object { profile: secret }
 * in a file only its owner can read. Like ssh with private keys, a file that
 * others can read or write is refused rather than used.
 */
import { ensureOwnFolder, openOwn } from '../util/own-files.js';
import { dirname, basename, join, sep } from 'node:path';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { insecureCredentialsFile, roamingCredentialsFile } from '../config/paths.js';
import { withFileLock } from '../config/file-lock.js';
import { privateFileWords, removeFileCommand } from '../output/platform-words.js';
import type { Env, SecretStore } from './secret-store-types.js';

// Not the ESM facade of node:fs, which loads its streams (start-up; see bin/code-cache.js).
const { closeSync, fstatSync, readFileSync } = process.getBuiltinModule('node:fs');
// Only writing needs node:crypto and fs/promises: loaded then, not by every command that opens a
// secret store (it is loaded to read the keychain too, and node:crypto alone costs milliseconds).
const writing = () => ({ ...process.getBuiltinModule('node:fs/promises'), randomBytes: process.getBuiltinModule('node:crypto').randomBytes });

const FILE_MODE = 0o600;
/** Any permission for group or others. */
const LOOSE_BITS = 0o077;
// Mode bits mean nothing on Windows; access there is governed by ACLs. Asked at each use, so
// tests can fake the platform.
const checksMode = () => process.platform !== 'win32';

/** The credentials file is unusable as it stands (too open, or damaged). */
export class CredentialsFileError extends CliError {
  constructor(message: string, hints: string[]) {
    super(message, ExitCode.Failure, hints);
    this.name = 'CredentialsFileError';
  }
}

export class FileSecretStore implements SecretStore {
  readonly kind = 'file' as const;
  readonly path: string;
  private readonly home: string | undefined;
  private readonly roamingPath: string | undefined;
  private movedFromRoaming?: Promise<void>;

  constructor(
    env: Env,
    /** Tells the user something they should know (the file was moved); ctx.out.warn where there is one. */
    private readonly notify: (message: string) => void = () => undefined,
  ) {
    this.path = insecureCredentialsFile(env);
    this.home = env.HOME;
    this.roamingPath = roamingCredentialsFile(env);
  }

  describe(): string {
    const shown = this.home && this.path.startsWith(this.home + sep)
      ? '~' + this.path.slice(this.home.length)
      : this.path;
    // Mode bits mean nothing on Windows; the file is in the user's own %LOCALAPPDATA%.
    return `file ${shown} (${privateFileWords()})`;
  }

  async get(profile: string): Promise<string | null> {
    await this.leaveRoamingProfile();
    return (await this.load()).get(profile) ?? null;
  }

  // set and delete read, change and rewrite the whole file: under a lock, so parallel
  // msgctl processes (cron jobs on other profiles) never lose each other's secrets.
  async set(profile: string, secret: string): Promise<void> {
    await this.leaveRoamingProfile();
    await withFileLock(this.lockPath, async () => {
      const secrets = await this.load();
      secrets.set(profile, secret);
      await this.save(secrets);
    });
  }

  async delete(profile: string): Promise<boolean> {
    await this.leaveRoamingProfile();
    return withFileLock(this.lockPath, async () => {
      const secrets = await this.load();
      if (!secrets.delete(profile)) return false;
      // Logging out of the last profile should leave no credentials file behind.
      if (secrets.size === 0) await writing().unlink(join(ensureOwnFolder(dirname(this.path), 'the credentials folder'), basename(this.path)));
      else await this.save(secrets);
      return true;
    });
  }

  /**
   * Windows: msgctl before 0.2 kept this file in %APPDATA%\msgctl, which roams: many clinic
   * domains copy it to a profile server at every sign-out, secrets included. Moved to this
   * PC's %LOCALAPPDATA% once, under the lock, saying so; a file already there wins.
   */
  private leaveRoamingProfile(): Promise<void> {
    this.movedFromRoaming ??= (async () => {
      const from = this.roamingPath;
      if (!from || from === this.path) return;
      await withFileLock(this.lockPath, async () => {
        const roaming = await this.load(from);
        if (roaming === null) return;
        const here = await this.load(this.path);
        if (here === null) await this.save(roaming);
        await writing().unlink(from);
        this.notify(
          here === null
            ? `moved the --insecure-storage credentials from ${from}, which roams with your Windows profile (copied to a profile server), to ${this.path}, on this PC only. Secrets stored there may already have been copied: consider replacing them (msgctl auth set-key, msgctl login).`
            : `removed ${from}, an older copy of the --insecure-storage credentials in your roaming Windows profile; msgctl uses ${this.path}. Secrets stored there may already have been copied: consider replacing them.`,
        );
      });
    })();
    return this.movedFromRoaming;
  }

  private get lockPath(): string {
    return `${this.path}.lock`;
  }

  /** A Map, not a plain object, so a profile named "__proto__" is just a name. */
  private async load(): Promise<Map<string, string>>;
  /** The file at `path`, or null when there is none. */
  private async load(path: string): Promise<Map<string, string> | null>;
  private async load(path?: string): Promise<Map<string, string> | null> {
    const file = path ?? this.path;
    // The user's own file in folders no one else can change, opened without following a link
    // (util/own-files.ts): a link to it from a planted folder must not hand the secret out.
    const fd = openOwn(file, 'read', 'the credentials file');
    if (fd === null) return path === undefined ? new Map() : null;
    let text: string;
    try {
      // Check the file we opened, not the name: it cannot be swapped in between.
      this.refuseIfTooOpen(fstatSync(fd).mode);
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isStringRecord(parsed)) {
      // Never echo the content: it holds secrets.
      throw new CredentialsFileError(`${file} is not a valid credentials file (expected a JSON object of profile names to secrets).`, [
        `Fix or remove it, then store the credential again: ${removeFileCommand(file)}`,
      ]);
    }
    return new Map(Object.entries(parsed));
  }

  private refuseIfTooOpen(fileMode: number): void {
    if (!checksMode()) return;
    const mode = fileMode & 0o777;
    if ((mode & LOOSE_BITS) === 0) return;
    throw new CredentialsFileError(
      `Refusing to use ${this.path}: its permissions (${mode.toString(8).padStart(4, '0')}) let other users access it.`,
      [`Make it readable only by you: chmod 600 ${this.path}`, 'Then consider rotating the secrets it holds.'],
    );
  }

  /**
   * Writes a temp file (created 0600, never wider) next to the target, flushes
   * it, and renames it over the target: a crash leaves either the old file or
   * the new one, never a torn or world-readable one.
   */
  private async save(secrets: Map<string, string>): Promise<void> {
    // The folder as checked and resolved once: the temp file and the rename never go through a link.
    const dir = ensureOwnFolder(dirname(this.path), 'the credentials folder');
    const target = join(dir, basename(this.path));
    const { open, unlink, randomBytes } = writing();
    const { replaceFile } = await import('../util/replace-file.js');
    const temp = join(dir, `.${basename(this.path)}.${randomBytes(6).toString('hex')}.tmp`);
    const body = JSON.stringify(Object.fromEntries(secrets), null, 2) + '\n';
    // 'wx': fail rather than write through something already at that name.
    const handle = await open(temp, 'wx', FILE_MODE);
    try {
      try {
        // The umask can only narrow the mode given to open; make it exact.
        if (checksMode()) await handle.chmod(FILE_MODE);
        await handle.writeFile(body, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      // Retried while Windows reports the file busy (antivirus, sync clients).
      await replaceFile(temp, target);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    await syncDirectory(dir);
  }
}

/** Makes the rename itself durable; not every platform can fsync a directory. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await writing().open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the file itself is synced.
  } finally {
    await handle.close();
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}
