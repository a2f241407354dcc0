// A supported Node.js for the project's own scripts, whatever `node` a machine
// has: `npm test`, `npm run demo` and CI run on Node 22.13+ (docs/platforms.md),
// and a fresh Debian or Ubuntu machine has an older one from apt. Releases of
// Node are on the npm registry as the `node` package, so they come from the one
// registry every contributor already reaches, into a per-user cache folder.
//
//   node scripts/node-line.mjs 24      prints the folder holding that line's `node`
//
// Runs on any Node from 18 on, so it can rescue an old one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The oldest Node msgctl supports (package.json engines; bin/msgctl.js refuses older ones). */
export const OLDEST_SUPPORTED = /** @type {const} */ ([22, 13]);

/** @param {string} [version] */
export function isSupported(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [oldestMajor, oldestMinor] = OLDEST_SUPPORTED;
  return major > oldestMajor || (major === oldestMajor && minor >= oldestMinor);
}

/** Where fetched Node lines are kept: the platform's per-user cache folder. */
function cacheFolder() {
  const env = process.env;
  if (env.MSGCTL_NODE_CACHE) return env.MSGCTL_NODE_CACHE;
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'msgctl-node');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'msgctl-node');
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'msgctl-node');
}

/**
 * The folder holding `node` of release line `major` (installed once from the npm
 * registry's `node` package); progress of the install goes to stderr.
 * @param {number | string} major
 * @returns {string}
 */
export function nodeLine(major) {
  const dir = join(cacheFolder(), String(major));
  const bin = join(dir, 'node_modules', 'node', 'bin');
  const exe = nodeExecutable(bin);
  if (!existsSync(exe)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    // npm is a .cmd script on Windows: only a shell starts it there.
    const npm = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `node@${major}`], {
      stdio: ['ignore', 2, 2],
      shell: process.platform === 'win32',
    });
    if (npm.status !== 0 || !existsSync(exe)) throw new Error(`could not install Node ${major} from the npm registry into ${dir}`);
  }
  return bin;
}

/** The `node` executable in a folder nodeLine returned. @param {string} bin */
export function nodeExecutable(bin) {
  return join(bin, process.platform === 'win32' ? 'node.exe' : 'node');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const major = process.argv[2];
  if (!major || !/^\d+$/.test(major)) {
    process.stderr.write('usage: node scripts/node-line.mjs MAJOR   (e.g. 24)\n');
    process.exit(2);
  }
  process.stdout.write(nodeLine(major) + '\n');
}
