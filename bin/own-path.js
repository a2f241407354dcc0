// Is a path the user's own, so that nobody else can create, replace or swap what msgctl reads
// there as code, configuration, credentials, a journal or a lock? (docs/security.md, promise 8.)
// One implementation for bin/code-cache.js, which runs before the bundle, and for the CLI
// itself (src/cli/util/own-files.ts bundles this file).
//
// The rules, as ssh's StrictModes: every component of the path, as written and (when a link
// is on the way) as resolved once by realpath, is checked with lstat: it belongs to the user
// or to root, and the folder holding it is writable by nobody else, unless that folder is
// sticky (like /tmp: there only an entry's owner can rename or remove it). A symlink is a
// component like any other: one another user owns (their link in /tmp pointing at the
// user's folder, swapped after the check) is refused. From then on the resolved path is
// used, and a file in it is opened without following links (O_NOFOLLOW) and checked again
// on the open descriptor (owner, mode, a regular file) before its bytes are used.
//
// A folder writable by its group counts as writable by others, except for a user private
// group (the group named like the user, with no other members in /etc/group: Red Hat's
// umask 002 makes every folder so).
//
// Windows: not checked (ACLs; the folders are under the user's own profile).
const fs = process.getBuiltinModule('node:fs');
const { dirname, resolve, sep } = process.getBuiltinModule('node:path');

export const checksPaths = process.platform !== 'win32';
const uid = checksPaths ? /** @type {() => number} */ (process.getuid)() : -1;
const STICKY = 0o1000;
const GROUP_WRITE = 0o020;
const OTHER_WRITE = 0o002;

/** @typedef {{ path: string }} Sound the path to use from now on (resolved when a link was on the way) */
/** @typedef {{ problem: string }} Unsound what is wrong, naming the file or folder */

/** Folders found sound in this process, and what they resolve to: a start-up checks each once. @type {Map<string, string>} */
const soundFolders = new Map();

/**
 * A folder whose files only the user (or root) can create, replace or remove.
 * `own`: the folder itself must be the user's (not root's) and writable by nobody else,
 * for what msgctl keeps there (its cache, config, state). Throws ENOENT when missing.
 * @param {string} folder
 * @param {{ own?: boolean }} [options]
 * @returns {Sound | Unsound}
 */
export function checkFolder(folder, options = {}) {
  if (!checksPaths) return { path: folder };
  const written = resolve(folder);
  const key = `${options.own ? 'own:' : ''}${written}`;
  const known = soundFolders.get(key);
  if (known) return { path: known };
  const result = checkChain(written);
  if ('problem' in result) return result;
  let real = written;
  // The chain's own lstat of the folder (its last component), not a second one.
  let stat = result.last;
  if (result.linked) {
    real = fs.realpathSync.native(written);
    const resolved = checkChain(real);
    if ('problem' in resolved) return { problem: `${resolved.problem} (${written} leads there)` };
    stat = resolved.last;
  }
  if (!stat.isDirectory()) return { problem: `${real} is not a folder` };
  if (writableByOthers(stat) && !(stat.mode & STICKY)) return { problem: `${real} is writable by other users (mode ${mode(stat)})` };
  // Writable by others first: for a shared folder like /tmp (root's), that is the cause to name.
  if (options.own && writableByOthers(stat)) return { problem: `${real} is writable by other users (mode ${mode(stat)})` };
  if (options.own && stat.uid !== uid) return { problem: `${real} belongs to another user (uid ${stat.uid})` };
  soundFolders.set(key, real);
  return { path: real };
}

/**
 * Each component of an absolute, normalised path, from the root down: the user's or root's,
 * in a folder nobody else can write to (or a sticky one). `linked`: a symlink was on the way;
 * `last`: the lstat of the path itself.
 * @param {string} path
 * @returns {{ linked: boolean, last: import('node:fs').Stats } | Unsound}
 */
function checkChain(path) {
  let linked = false;
  /** @type {import('node:fs').Stats | null} */
  let parent = null;
  let parentPath = '';
  for (const component of components(path)) {
    const stat = fs.lstatSync(component);
    // The folder first: when others can write to it, what it holds is theirs to replace (the cause to name).
    if (parent && writableByOthers(parent) && !(parent.mode & STICKY)) {
      return { problem: `${parentPath} is writable by other users (mode ${mode(parent)}), so they could replace ${component}` };
    }
    if (stat.uid !== uid && stat.uid !== 0) return { problem: `${component} belongs to another user (uid ${stat.uid})` };
    if (stat.isSymbolicLink()) linked = true;
    else if (!stat.isDirectory()) return { problem: `${component} is not a folder` };
    parent = stat;
    parentPath = component;
  }
  // Never null: a path has at least its root component.
  return { linked, last: /** @type {import('node:fs').Stats} */ (parent) };
}

/** `/a/b/c` → `/`, `/a`, `/a/b`, `/a/b/c`. @param {string} path */
function components(path) {
  const list = [];
  for (let at = path; ; at = dirname(at)) {
    list.unshift(at);
    if (dirname(at) === at) return list;
  }
}

/**
 * Opens a file in a folder checkFolder found sound, without following a link, and checks the
 * open descriptor: a regular file, the user's own (or root's, with `rootMayOwn`), with no
 * second link, writable by nobody else, and readable by nobody else when `secret`. Returns the
 * descriptor (the caller closes it), or what is wrong (the descriptor closed). Throws the
 * open's error (ENOENT: no such file; EEXIST with O_EXCL; ELOOP: a symlink at the name).
 * @param {string} folder a path checkFolder returned
 * @param {string} name
 * @param {number} flags fs.constants.O_* (O_NOFOLLOW and O_NONBLOCK are added)
 * @param {{ secret?: boolean, rootMayOwn?: boolean, mode?: number }} [rules]
 * @returns {{ fd: number, stat: import('node:fs').Stats } | Unsound}
 */
export function openOwnFile(folder, name, flags, rules = {}) {
  const path = `${folder}${folder.endsWith(sep) ? '' : sep}${name}`;
  const { O_NOFOLLOW = 0, O_NONBLOCK = 0, O_NOCTTY = 0 } = fs.constants;
  const open = (/** @type {number} */ extra) => fs.openSync(path, flags | O_NOFOLLOW | O_NOCTTY | extra, rules.mode ?? 0o600);
  let fd;
  try {
    // O_NONBLOCK: a FIFO at the name (even the user's own) must be refused, not waited on for a
    // writer or reader that never comes; regular files ignore the flag once open. O_NOCTTY: a
    // terminal there is refused too, without becoming msgctl's controlling terminal.
    fd = open(O_NONBLOCK);
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code;
    // A FIFO opened for writing with no reader (a socket, for any access) is ENXIO: not a file.
    if (code === 'ENXIO') return { problem: `${path} is not a regular file` };
    // A regular file under another process's lease (Samba, an NFS server's delegation): without
    // O_NONBLOCK, open waits for the lease to be broken, as any program's would. A FIFO never
    // answers EAGAIN, and what is opened is checked below all the same.
    if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') throw err;
    fd = open(0);
  }
  const stat = fs.fstatSync(fd);
  const problem = checksPaths ? fileProblem(path, stat, rules) : null;
  if (problem === null) return { fd, stat };
  fs.closeSync(fd);
  return { problem };
}

/**
 * What is wrong with an opened file for msgctl's use, or null.
 * @param {string} path
 * @param {import('node:fs').Stats} stat
 * @param {{ secret?: boolean, rootMayOwn?: boolean }} rules
 */
export function fileProblem(path, stat, rules) {
  if (!stat.isFile()) return `${path} is not a regular file`;
  if (stat.uid !== uid && !(rules.rootMayOwn && stat.uid === 0)) return `${path} belongs to another user (uid ${stat.uid})`;
  // 0: removed since it was opened (a lock released right then): no other name for it either.
  if (stat.nlink > 1) return `${path} has ${stat.nlink} hard links (another name could change it)`;
  if (writableByOthers(stat)) return `${path} is writable by other users (mode ${mode(stat)})`;
  if (rules.secret && (stat.mode & 0o077) !== 0) return `${path} can be read by other users (mode ${mode(stat)})`;
  return null;
}

/** @param {import('node:fs').Stats} stat */
function writableByOthers(stat) {
  if (stat.mode & OTHER_WRITE) return true;
  return (stat.mode & GROUP_WRITE) !== 0 && !isPrivateGroup(stat.gid);
}

/** @param {import('node:fs').Stats} stat */
function mode(stat) {
  return (stat.mode & 0o7777).toString(8).padStart(4, '0');
}

/** @type {Map<number, boolean>} */
const privateGroups = new Map();

/**
 * The user private group: the user's primary group, named like the user, listing no other
 * member in /etc/group. Read only when a group-writable folder is met.
 * @param {number} gid
 */
function isPrivateGroup(gid) {
  let known = privateGroups.get(gid);
  if (known !== undefined) return known;
  known = false;
  try {
    const { userInfo } = process.getBuiltinModule('node:os');
    const user = userInfo();
    if (gid === user.gid) {
      const line = fs.readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.split(':')[2] === String(gid));
      const [name, , , members = ''] = line ? line.split(':') : [];
      known = name === user.username && members.split(',').every((m) => m === '' || m === user.username);
    }
  } catch {
    known = false;
  }
  privateGroups.set(gid, known);
  return known;
}
