/**
 * Opening the files msgctl keeps for a user — config.json, the credentials file, batch
 * journals, lock files — so that nothing another local user can create, replace or swap
 * is ever read or written as one of them (docs/security.md, promise 8). The rules are
 * bin/own-path.js's, bundled from there (the code cache checks its folder the same way
 * before the bundle loads): every folder on the way the user's or root's and writable by
 * nobody else unless sticky, the path resolved once, the file opened without following a
 * link and checked on the open descriptor (owner, one link, mode, a regular file).
 *
 * A file or folder that fails is refused with what is wrong, naming it, as ssh's
 * StrictModes does: never silently used, never silently skipped.
 */
import { basename, dirname, join } from 'node:path';
import { checkFolder, checksPaths, openOwnFile } from '../../../bin/own-path.js';
import { CliError, UsageError } from '../errors.js';

// Not `import … from 'node:fs'`: that ESM facade loads Node's fs streams (start-up; see bin/code-cache.js).
const fs = process.getBuiltinModule('node:fs');
const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_APPEND, O_TRUNC } = fs.constants;

export { checkFolder, checksPaths };

export interface FileRules {
  /** Readable by nobody else either (credentials). */
  secret?: boolean;
  /** A root-owned file is fine to read (a config an administrator put there). */
  rootMayOwn?: boolean;
}

/** A file or folder another user could have put there or could change: refused. */
export class UnsafeFileError extends CliError {
  constructor(what: string, problem: string, hints?: string[]) {
    super(`Refusing to use ${what}: ${problem}.`, undefined, hints ?? [
      'Another local user could have put it there or could change it. Make the file and every folder above it yours (or root\'s) and writable only by you, e.g. chmod go-w FOLDER, or point msgctl somewhere that is (HOME, XDG_CONFIG_HOME, XDG_STATE_HOME, --journal).',
      'If someone else could have written it, check what it holds before using it again.',
    ]);
    this.name = 'UnsafeFileError';
  }
}

/** `folder` checked, as the path to use from now on (resolved once); throws ENOENT when missing. */
export function ownFolder(folder: string, what: string, options: { own?: boolean } = {}): string {
  const checked = checkFolder(folder, options);
  if ('problem' in checked) throw new UnsafeFileError(what, checked.problem);
  return checked.path;
}

/** `folder`, made if missing (owner-only, one level at a time like mkdir -p), then checked. */
export function ensureOwnFolder(folder: string, what: string): string {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  return ownFolder(folder, what);
}

export type OpenFor = 'read' | 'append' | 'update' | 'truncate' | 'create';

const FLAGS: Record<OpenFor, number> = {
  read: O_RDONLY,
  append: O_WRONLY | O_APPEND,
  update: O_RDWR,
  truncate: O_WRONLY | O_TRUNC,
  // Exclusive: never through something already at that name (a link, another user's file).
  create: O_WRONLY | O_CREAT | O_EXCL,
};

/**
 * Opens `path` (a file in a folder that passes ownFolder) as `how`; returns its descriptor,
 * or null when it does not exist (for `create`: throws EEXIST when it does).
 */
export function openOwn(path: string, how: OpenFor, what: string, rules: FileRules = {}): number | null {
  let folder: string;
  try {
    folder = how === 'create' ? ensureOwnFolder(dirname(path), what) : ownFolder(dirname(path), what);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return openAtName(folder, basename(path), FLAGS[how], what, { ...rules, mode: 0o600 });
}

/**
 * openOwnFile in a folder already checked: the descriptor, or null when nothing is at the name;
 * a link there, or a file that fails the rules, is an UnsafeFileError (with `hints`, or the usual
 * ones); any other error of the open (EEXIST, EACCES…) as thrown.
 */
function openAtName(folder: string, name: string, flags: number, what: string, rules: FileRules & { mode?: number }, hints?: string[]): number | null {
  let opened;
  try {
    opened = openOwnFile(folder, name, flags, rules);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    // O_NOFOLLOW refuses a symlink at the name with ELOOP (EMLINK on some BSDs).
    if (code === 'ELOOP' || code === 'EMLINK') throw new UnsafeFileError(what, `${join(folder, name)} is a symbolic link`, hints);
    throw err;
  }
  if ('problem' in opened) throw new UnsafeFileError(what, opened.problem, hints);
  return opened.fd;
}

/** The text of a file of the user's own, or null when there is none. */
export function readOwnText(path: string, what: string, rules: FileRules = {}): string | null {
  const fd = openOwn(path, 'read', what, rules);
  if (fd === null) return null;
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A file another program opens by its name (SQLite, for the sandbox's --data), and that
 * creates side files beside it by name (FILE-wal, FILE-shm…) without asking who owns them:
 * its folder must exist, be the user's own and writable by nobody else, not even sticky (in
 * /tmp another user could plant FILE-wal before it is made, and SQLite would replay it), and
 * the file and each side file already there must be the user's own regular files. `option`
 * names the flag in messages. A folder that is missing or not a folder is a usage error
 * (exit 2), not a refusal: the program is never started on a path not checked.
 *
 * Returns the path to go on with: as given, since every folder and link on the way is the
 * user's or root's and none can be changed by anyone else (checked), so it leads where it led
 * when checked, and messages name it as the user wrote it.
 */
export function ownNamedFile(path: string, sideSuffixes: readonly string[], option: string): string {
  if (!checksPaths) return path;
  const what = `${option} ${path}`;
  const notUsable = (why: string) => new UsageError(`Cannot open ${what}: ${why} (its directory must exist and be writable).`);
  const folder = dirname(path);
  let isFolder: boolean;
  try {
    isFolder = fs.statSync(folder).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw notUsable(`there is no folder ${folder}`);
    if (code === 'ENOTDIR') throw notUsable(`${folder} is not a folder`);
    if (code === 'EACCES') throw notUsable(`you may not enter ${folder}`);
    throw notUsable((err as Error).message);
  }
  if (!isFolder) throw notUsable(`${folder} is not a folder`);
  const hints = [
    `Another local user could have put it there or could change it. Keep ${option} in a folder of your own that only you can write (not /tmp), e.g. ${option} ~/sandbox/world.db.`,
    'If someone else could have written it, check what it holds before using it again.',
  ];
  let checked;
  try {
    checked = checkFolder(folder, { own: true });
  } catch (err) {
    throw notUsable((err as Error).message); // gone or unreadable since the stat above
  }
  if ('problem' in checked) throw new UnsafeFileError(what, checked.problem, hints);
  const name = basename(path);
  for (const suffix of ['', ...sideSuffixes]) {
    let fd;
    try {
      // openOwnFile does not wait: a FIFO planted at the name is refused, never hangs the start.
      fd = openAtName(checked.path, name + suffix, O_RDONLY, what, {}, hints);
    } catch (err) {
      if (err instanceof UnsafeFileError) throw err;
      throw notUsable((err as Error).message);
    }
    if (fd !== null) fs.closeSync(fd);
  }
  return path;
}

/** The resolved folder of `path` joined with its name: where to write beside it (temp files, renames). */
export function ownPath(path: string, what: string): string {
  return join(ensureOwnFolder(dirname(path), what), basename(path));
}
