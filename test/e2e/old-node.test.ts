/**
 * On a Node older than msgctl supports, every way into the bin ends at once with what to
 * install, before anything else loads: an older Node would otherwise fail on a later import
 * (process.getBuiltinModule, require of an ES module) with an error that says nothing useful,
 * or, for `--version` and `--help`, seem to work. Runs with the machine's own Node when it is
 * older than 22.13 (Debian 12's is 18, this CI machine's 20); skipped where there is none, and on
 * Windows.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { binPath, isolatedEnv } from '../helpers/cli.js';
import { isSupported } from '../../scripts/node-line.mjs';

/**
 * The first `node` on PATH or in the usual places whose version msgctl refuses, with that version and
 * its real path (what the message names: Node's own execPath). 18 or later: the oldest msgctl means
 * to meet with a message (an older one cannot parse the bin's top-level await).
 */
function olderNode(): { path: string; version: string; realPath: string } | null {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    let version: string;
    try {
      version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
    } catch {
      continue;
    }
    if (Number(version.split('.')[0]) >= 18 && !isSupported(version)) return { path, version, realPath: realpathSync(path) };
  }
  return null;
}

const old = process.platform === 'win32' ? null : olderNode();

describe.skipIf(!old)(`on Node ${old?.version ?? '(none older than 22.13 on this machine)'}`, () => {
  it.each(['--version', '--help', 'send --help', 'org --json', 'send --dry-run --to +12125550100 hi'])(
    'msgctl %s says which Node it needs and how to get it, prints nothing else, exit 1',
    async (commandLine) => {
      const r = await execa(old!.path, [binPath(), ...commandLine.split(' ')], { env: isolatedEnv(), extendEnv: false, reject: false });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`msgctl needs Node.js 22.13 or later; this is Node.js ${old!.version} (${old!.realPath}).`);
      expect(r.stderr).toContain('npm install -g --prefix ~/.local node@24');
      expect(r.stderr).toMatch(/Step by step: .+getting-started\.md \("Install"\)\.$/);
    },
  );
});
