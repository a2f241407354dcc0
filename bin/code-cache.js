// Compiled code kept between runs, in the user's own cache folder (start-up, issue 15).
//
// 1. V8's compile cache (Node's module.enableCompileCache) for the npm packages
//    dist/cli.cjs requires. Node writes that cache as soon as a file is compiled,
//    so it only holds what V8 compiles up front: the top level of each file.
// 2. For dist/cli.cjs itself, a cache made *after* the command ran (loadCli below):
//    V8 compiles a function only when it is first called, and a command calls a
//    few hundred of the bundle's functions (argument parsing, config, client,
//    output); compiling them again on every start cost ~8–12 ms of a ~65 ms
//    `msgctl org`. One cache per top-level command, since each calls different code.
//
// Both live under the user's cache folder, created owner-only; a folder that cannot be
// created or written only means no cache, never an error or a hang. What is read from there
// runs as code, so it is read only from a folder nobody else can write to or swap, as
// checked by own-path.js, and the bundle's code only with this user's secret on its first
// bytes (below). NODE_COMPILE_CACHE (a folder of the user's choosing) wins for the first;
// NODE_DISABLE_COMPILE_CACHE=1 turns both off.
//
// Built-ins come from process.getBuiltinModule, not `import … from 'node:fs'`: the ESM
// facade of node:fs reads every export, and its ReadStream getter loads Node's fs
// streams (~8–12 ms of a ~40 ms start) that no light command uses.
const fs = process.getBuiltinModule('node:fs');
const nodeModule = process.getBuiltinModule('node:module');
const { homedir } = process.getBuiltinModule('node:os');
const { dirname, isAbsolute, join } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');
import { checkFolder, openOwnFile } from './own-path.js';

const disabled = process.env.NODE_DISABLE_COMPILE_CACHE === '1';

function msgctlCacheFolder() {
  const env = process.env;
  if (process.platform === 'win32') {
    const local = env.LOCALAPPDATA;
    return local && isAbsolute(local) ? join(local, 'msgctl', 'Cache') : null;
  }
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'msgctl');
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'msgctl');
}

/**
 * Creates the folder one level at a time (owner-only), false if any level cannot be made.
 * Not `recursive: true`, nor left to enableCompileCache: Node's recursive mkdir never
 * returns under a path such as /proc/x, and a start-up must never hang on its cache.
 */
/** @param {string} folder @returns {boolean} */
function ensureFolder(folder) {
  if (fs.existsSync(folder)) return true;
  const parent = dirname(folder);
  if (parent === folder || !ensureFolder(parent)) return false;
  try {
    fs.mkdirSync(folder, { mode: 0o700 });
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EEXIST';
  }
}

/**
 * `<user cache>/msgctl/<name>`, made if missing, as the path to use from now on (resolved
 * once: a link on the way is not followed again); null when it cannot be made (no home, a
 * read-only disk) or when someone else could put files there or swap it (own-path.js):
 * what is read from it runs as code. Refused silently: the cache only saves time, and a
 * cron job's mail should not fill with it; docs/security.md says how to see why.
 */
/** @param {string} name @returns {string | null} */
function ownCacheFolder(name) {
  try {
    const root = msgctlCacheFolder();
    const folder = root && join(root, name);
    if (!folder || !ensureFolder(folder)) return null;
    const checked = checkFolder(folder, { own: true });
    if ('problem' in checked) {
      if (process.env.MSGCTL_DEBUG_CACHE) process.stderr.write(`msgctl: not using the code cache: ${checked.problem}\n`);
      return null;
    }
    return checked.path;
  } catch {
    return null; // no home folder, or an unusual platform: run without the cache
  }
}

if (!disabled && !process.env.NODE_COMPILE_CACHE) {
  const folder = ownCacheFolder('compile');
  try {
    // The resolved path: Node reads and trusts what it finds there, so a link on the way must not be followed again.
    if (folder) nodeModule.enableCompileCache?.(folder);
  } catch {
    // enableCompileCache reports failures in its result; this covers the rest.
  }
}

/**
 * Loads dist/cli.cjs (the exports of a CommonJS module) with the compiled code a
 * previous run of the same kind of command line left, and leaves such code for the
 * next run when there was none. `args` is the command line (without node and the bin);
 * its command and the options it names make the cache's name (cacheKey).
 *
 * V8 accepts a code cache when the source has the same length and V8 the same
 * version and flags; it does not compare the text. So the file name carries what
 * identifies this very bundle: the build's content hash (an upgrade of the same size
 * installed by npm, which gives every file the same modification time, is still another
 * build), the file's folder, inode, size and modification time (a bundle edited in
 * place), and the Node version. Writes go to a private temporary file renamed into
 * place, so two commands started together never read half a cache.
 *
 * So a cache file is code, whatever source it was made from. Besides the folder's checks,
 * each file starts with this user's secret (SECRET_BYTES random bytes, kept 0600 in the
 * same folder as `secret`, made on the first save), and a file that does not is never
 * given to V8: a file msgctl did not write for this user (planted through a hole in the
 * folder checks, copied from another account or machine, restored from a backup) does
 * not run. The secret is not bound to the file's content, on purpose: whoever can read a
 * cache file can read the secret beside it (same folder, same owner, same mode), so a
 * keyed hash of the content would stop nobody a prefix does not, and a real MAC needs
 * node:crypto, whose loading costs about what the cache saves (~12 ms). Another local
 * user can neither read the secret nor write into the folder.
 */
/** @param {string[]} args @returns {any} the bundle's exports */
export function loadCli(args) {
  const bundle = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
  const requireFromBundle = nodeModule.createRequire(bundle);
  const folder = disabled ? null : ownCacheFolder('code');
  /** @type {import('node:vm').Script} */
  let script;
  /** @type {string} */
  let cacheFile;
  let hadCache = false;
  try {
    if (!folder) throw new Error('no cache folder');
    const vm = process.getBuiltinModule('node:vm');
    let source;
    let stat;
    const fd = fs.openSync(bundle, 'r');
    try {
      stat = fs.fstatSync(fd);
      source = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
    // The build's content hash, which scripts/build.mjs writes on the bundle's first line.
    const build = /^\/\*msgctl-build:([0-9a-f]{16})\*\//.exec(source)?.[1];
    if (!build) throw new Error('a bundle without its build id');
    // Per install, named by its folder (a global msgctl and a project's own must not replace each other's code).
    const install = `.${process.versions.node}-${process.arch}-${fnv1a(bundle)}-`;
    const bundleId = `${build}-${stat.ino}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8`;
    cacheFile = `cli.${cacheKey(args)}${install}${bundleId}`;
    const secret = readOwnFile(folder, SECRET_FILE);
    const kept = secret?.length === SECRET_BYTES ? readOwnFile(folder, cacheFile) : null;
    // Only a file that carries this user's secret is code msgctl wrote (see above).
    const cachedData = kept && secret && kept.length > SECRET_BYTES && kept.subarray(0, SECRET_BYTES).equals(secret) ? kept.subarray(SECRET_BYTES) : undefined;
    hadCache = cachedData !== undefined;
    // The bundle is Node's CommonJS wrapper called at once (scripts/build.mjs): the wrapper alone is
    // compiled, a slice of the text as read, which V8 does not copy (a concatenated wrapper was a
    // second 570 KB string, and a garbage collection more per command).
    const wrapperEnd = source.lastIndexOf('\n})') + 3;
    if (wrapperEnd < 3) throw new Error('a bundle without its wrapper');
    script = new vm.Script(source.slice(0, wrapperEnd), { filename: bundle, cachedData });
    if (!hadCache || script.cachedDataRejected) process.once('exit', (code) => code === 0 && saveCode(script, folder, cacheFile, install, bundleId));
  } catch {
    return requireFromBundle(bundle); // no folder, unreadable cache: the plain way
  }
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, requireFromBundle, module, bundle, dirname(bundle));
  return module.exports;
}

/**
 * What a run's compiled code is kept under: its command (`send`, `patients+list`: the
 * words that have a help file, after any global options; `_` when none do) and the
 * options it names, hashed (`--csv`, `--dry-run`, `--json`; not their values). One
 * command runs different code with different options: a `send --csv` only starts the
 * batch thread, a `send --dry-run` never loads the HTTP client, so code kept from one
 * would leave the other compiling its own on every run (`send --dry-run` after a
 * `send --csv` had cached: ~4 ms more per start). A script or a cron job repeats one
 * command line, so it always finds its own.
 */
/** @param {string[]} args */
function cacheKey(args) {
  const { commands, globalOptionsWithValues } = commandLineShape();
  /** @type {string[]} */
  const words = [];
  /** @type {Set<string>} */
  const options = new Set();
  for (let i = 0; i < args.length; i++) {
    const arg = /** @type {string} */ (args[i]);
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      const name = /** @type {string} */ (arg.split('=', 1)[0]);
      options.add(name);
      // `--profile sandbox org`: the value is not the command (it was, before: every command run with
      // `--profile sandbox` shared the sandbox command's cache).
      if (name === arg && globalOptionsWithValues.has(name)) i++;
    } else if (words.length < 2 && commands.has([...words, arg].join(' '))) words.push(arg);
  }
  return `${words.length ? words.join('+') : '_'}.${fnv1a([...options].sort().join(' '))}`;
}

/**
 * The command tree's names and global options with values, as scripts/build.mjs wrote them.
 * @returns {{ commands: Set<string>, globalOptionsWithValues: Set<string> }}
 */
function commandLineShape() {
  const shape = JSON.parse(fs.readFileSync(new URL('../dist/command-line.json', import.meta.url), 'utf8'));
  return { commands: new Set(shape.commands), globalOptionsWithValues: new Set(shape.globalOptionsWithValues) };
}

/** Code kept per install and build at most; the oldest go first (a few hundred KB each). */
const MAX_CACHED_COMMANDS = 24;

/** FNV-1a of a string, as 8 hex digits: names (an install folder, a set of options), not secrets. */
/** @param {string} text */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

const SECRET_FILE = 'secret';
const SECRET_BYTES = 32;

/**
 * A file of the cache folder, if there is one that is the user's own, 0600, a regular file
 * with one link (own-path.js, checked on the open descriptor); else null.
 * @param {string} folder @param {string} name @returns {Buffer | null}
 */
function readOwnFile(folder, name) {
  let opened;
  try {
    opened = openOwnFile(folder, name, fs.constants.O_RDONLY, { secret: true });
  } catch {
    return null; // none yet
  }
  if ('problem' in opened) return null;
  try {
    return fs.readFileSync(opened.fd);
  } catch {
    return null;
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** A new file in the cache folder, created exclusively (never through a link), 0600; its descriptor. */
/** @param {string} folder @param {string} name @returns {number} */
function createOwnFile(folder, name) {
  const { O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
  const opened = openOwnFile(folder, name, O_WRONLY | O_CREAT | O_EXCL, { secret: true, mode: 0o600 });
  if ('problem' in opened) throw new Error(opened.problem);
  return opened.fd;
}

/**
 * This user's secret, made on the first save: random bytes written to a temporary file
 * and linked into place, so two first runs agree on one (the second's link fails, and it
 * reads the first's). node:crypto only here, at the exit of a run that saves.
 * @param {string} folder @returns {Buffer | null}
 */
function ownSecret(folder) {
  const existing = readOwnFile(folder, SECRET_FILE);
  if (existing) return existing.length === SECRET_BYTES ? existing : null;
  const temp = `${SECRET_FILE}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
  const fd = createOwnFile(folder, temp);
  try {
    fs.writeFileSync(fd, process.getBuiltinModule('node:crypto').randomBytes(SECRET_BYTES));
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(join(folder, temp), join(folder, SECRET_FILE));
  } catch {
    // another first run made it in between: theirs is the one
  } finally {
    fs.rmSync(join(folder, temp), { force: true });
  }
  const secret = readOwnFile(folder, SECRET_FILE);
  return secret?.length === SECRET_BYTES ? secret : null;
}

/**
 * After a successful run: the code V8 compiled for this command line, for the next run,
 * after this user's secret. Code an older build of this install left for this Node version
 * is removed (no run can use it again), as is this build's beyond the MAX_CACHED_COMMANDS newest.
 */
/** @param {import('node:vm').Script} script @param {string} folder @param {string} cacheFile @param {string} install @param {string} bundleId */
function saveCode(script, folder, cacheFile, install, bundleId) {
  // Unique even across containers that share a home and a pid; removed only if this run made it.
  const temp = `${cacheFile}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
  let made = false;
  try {
    const secret = ownSecret(folder);
    if (!secret) return;
    const fd = createOwnFile(folder, temp);
    made = true;
    try {
      fs.writeFileSync(fd, secret);
      fs.writeFileSync(fd, script.createCachedData());
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(join(folder, temp), join(folder, cacheFile));
    made = false;
    const current = [];
    for (const name of fs.readdirSync(folder)) {
      if (!name.startsWith('cli.') || !name.endsWith('.v8') || !name.includes(install)) continue;
      if (!name.endsWith(`${install}${bundleId}`)) fs.rmSync(join(folder, name), { force: true });
      else if (name !== cacheFile) current.push(name);
    }
    if (current.length >= MAX_CACHED_COMMANDS) {
      const byAge = current.map((name) => ({ name, mtime: fs.lstatSync(join(folder, name)).mtimeMs })).sort((a, b) => a.mtime - b.mtime);
      for (const { name } of byAge.slice(0, current.length - MAX_CACHED_COMMANDS + 1)) fs.rmSync(join(folder, name), { force: true });
    }
  } catch {
    try {
      if (made) fs.rmSync(join(folder, temp), { force: true });
    } catch {
      // nothing more to do at exit
    }
  }
}
