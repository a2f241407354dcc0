// For `npm test` and `npm run demo` on a machine whose Node is older than msgctl
// supports (Debian 12 and Ubuntu ship Node 18 or 20): rather than fail minutes in,
// run the script again on the newest supported line, fetched from the npm registry
// (scripts/node-line.mjs), and say so in one line. The installed `msgctl` itself
// never does this: it refuses an old Node with a clear message (bin/msgctl.js).
import { spawnSync } from 'node:child_process';
import { delimiter } from 'node:path';
import { isSupported, nodeExecutable, nodeLine } from './node-line.mjs';

/** The line fetched when the machine's Node is too old. */
const FETCHED_LINE = 24;

/**
 * Returns when this Node is supported; otherwise runs `script` (with the same
 * arguments) on a fetched Node, its folder first on PATH so child processes use it
 * too, and exits with that run's status.
 * @param {string} script
 */
export function ensureSupportedNode(script) {
  if (isSupported()) return;
  const bin = nodeLine(FETCHED_LINE);
  // Windows spells it `Path`; any spelling must be replaced, not joined by a second one.
  const pathKey = Object.keys(process.env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
  const env = { ...process.env, [pathKey]: `${bin}${delimiter}${process.env[pathKey] ?? ''}` };
  const node = nodeExecutable(bin);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  process.stderr.write(`Node ${process.versions.node} is older than msgctl supports (22.13+): using Node ${version} from the npm registry (${bin}).\n`);
  const result = spawnSync(node, [script, ...process.argv.slice(2)], { env, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
