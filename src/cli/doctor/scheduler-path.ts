/**
 * What a scheduler's job would find: cron runs jobs with PATH=/usr/bin:/bin,
 * launchd with /usr/bin:/bin:/usr/sbin:/sbin, so `msgctl` from a user's PATH
 * is often not there (exit 127), and `#!/usr/bin/env node` finds the
 * system's older Node (which msgctl refuses). Says which, and the PATH line or
 * absolute command that works on this machine (docs/scripting.md, "Nightly
 * reminders from cron").
 */
import { spawn } from 'node:child_process';
import { withoutSecrets } from '../util/secret-env.js';
import { delimiter, dirname, join } from 'node:path';
import type { Env } from '../context.js';
import type { CheckResult } from './check.js';

const { accessSync, constants, realpathSync } = process.getBuiltinModule('node:fs');

export const CRON_PATH = '/usr/bin:/bin';
export const LAUNCHD_PATH = '/usr/bin:/bin:/usr/sbin:/sbin';

/** The first executable `name` on `path`, as a shell would find it. */
export function which(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** `node --version` of an executable, or null when it does not answer within the time. */
export function nodeVersion(node: string, timeoutMs = 3_000): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(node, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'], timeout: timeoutMs, env: withoutSecrets(process.env) as NodeJS.ProcessEnv });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code === 0 ? out.trim() : null));
  });
}

export function supportedVersion(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

/** Where this msgctl is: the command on the user's PATH (npm's link), and the script it runs. */
export interface Installation {
  /** The `msgctl` on the current PATH, if any. */
  command: string | null;
  /** bin/msgctl.js of this installation, when known. */
  script: string | null;
}

export function installation(env: Env, script: string | null): Installation {
  return { command: which(process.platform === 'win32' ? 'msgctl.cmd' : 'msgctl', env.PATH ?? ''), script };
}

/** The scheduler check for this platform; Windows' Task Scheduler runs with the user's own PATH. */
export async function schedulerPath(
  env: Env,
  where: Installation,
  platform: NodeJS.Platform = process.platform,
  /** The scheduler's PATH (cron's or launchd's); for tests. */
  schedulerPathValue?: string,
): Promise<CheckResult> {
  const check = platform === 'darwin' ? 'launchd PATH' : 'cron PATH';
  if (platform === 'win32') return { check: 'scheduler PATH', status: 'skip', detail: 'Task Scheduler runs tasks with your own PATH' };
  const path = schedulerPathValue ?? (platform === 'darwin' ? LAUNCHD_PATH : CRON_PATH);
  // The `node` the user types, when it is this one: ~/.local/bin/node rather than the file it links to.
  const typed = which('node', env.PATH ?? '');
  const node = typed && realpathOr(typed) === realpathOr(process.execPath) ? typed : process.execPath;
  const nodeDir = dirname(node);
  const msgctlDir = where.command ? dirname(where.command) : null;
  const fixPath = [...new Set([nodeDir, ...(msgctlDir ? [msgctlDir] : []), ...path.split(':')])].join(':');
  const absolute = where.script ? `${node} ${realpathOr(where.script)}` : null;
  const how =
    platform === 'darwin'
      ? `in the plist, EnvironmentVariables PATH = ${fixPath}`
      : `in the crontab, above the job: PATH=${fixPath}`;
  // Without msgctl on this PATH either (run as node …/bin/msgctl.js), only absolute paths work.
  const fix = msgctlDir || !absolute ? `${how}${absolute ? `; or run it by absolute paths: ${absolute} …` : ''}` : `run it by absolute paths: ${absolute} …`;

  const found = which('msgctl', path);
  if (!found) return { check, status: 'warn', detail: `a job run with PATH=${path} finds no msgctl (exit 127)`, fix };
  const envNode = which('node', path);
  const version = envNode ? await nodeVersion(envNode) : null;
  if (!envNode || !version) return { check, status: 'warn', detail: `${found} is there, but no working node for its #!/usr/bin/env node`, fix };
  if (!supportedVersion(version)) {
    return { check, status: 'warn', detail: `${found} is there, but its #!/usr/bin/env node finds ${envNode} ${version}, which msgctl refuses (22.13+)`, fix };
  }
  return { check, status: 'ok', detail: `a job run with PATH=${path} finds ${found} and ${envNode} ${version}` };
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
