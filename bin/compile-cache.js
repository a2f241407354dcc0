// V8's compile cache for msgctl's own modules (Node 22.1+): the second start of
// a command skips parsing and compiling dist/ and its dependencies, which is
// most of what a light command costs beyond bare Node. The cache lives in the
// user's own cache folder — never a shared /tmp path another user could write
// into — and a folder that cannot be created or written only means no cache:
// enableCompileCache reports the failure instead of throwing, and the try
// covers the rest. NODE_COMPILE_CACHE (a folder of the user's choosing) wins;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
//
// Built-ins come from process.getBuiltinModule, not `import … from 'node:fs'`: the ESM
// facade of node:fs reads every export, and its ReadStream getter loads Node's fs
// streams (~8–12 ms of a ~40 ms start) that no light command uses.
const { existsSync, mkdirSync } = process.getBuiltinModule('node:fs');
const nodeModule = process.getBuiltinModule('node:module');
const { homedir } = process.getBuiltinModule('node:os');
const { dirname, isAbsolute, join } = process.getBuiltinModule('node:path');

function cacheFolder() {
  const env = process.env;
  if (process.platform === 'win32') {
    const local = env.LOCALAPPDATA;
    return local && isAbsolute(local) ? join(local, 'msgctl', 'Cache', 'compile') : null;
  }
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'msgctl', 'compile');
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'msgctl', 'compile');
}

/**
 * Creates the folder one level at a time (owner-only), false if any level cannot be made.
 * Not `recursive: true`, nor left to enableCompileCache: Node's recursive mkdir never
 * returns under a path such as /proc/x, and a start-up must never hang on its cache.
 */
function ensureFolder(folder) {
  if (existsSync(folder)) return true;
  const parent = dirname(folder);
  if (parent === folder || !ensureFolder(parent)) return false;
  try {
    mkdirSync(folder, { mode: 0o700 });
    return true;
  } catch (err) {
    return err.code === 'EEXIST';
  }
}

try {
  if (!process.env.NODE_COMPILE_CACHE) {
    const folder = cacheFolder();
    if (folder && ensureFolder(folder)) nodeModule.enableCompileCache?.(folder);
  }
} catch {
  // No home folder, or an unusual platform: run without the cache.
}
