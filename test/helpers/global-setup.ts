/**
 * Builds the CLI once per test run into a private folder, so end-to-end tests
 * spawn a real built binary and parallel runs never race on dist/.
 * `MSGCTL_TEST_BIN` tells the tests where it is.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export default function setup() {
  const root = resolve(import.meta.dirname, '../..');
  const dir = join(root, 'node_modules', '.cache', 'msgctl-test', String(process.pid));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--outdir', join(dir, 'dist')], { cwd: root, stdio: 'inherit' });
  // Only the bin, as package.json "files" ships it: bin/code-cache.js and bin/own-path.js run as
  // dist/code-cache.js, so a bin that imported them again would fail here as it would installed.
  cpSync(join(root, 'bin', 'msgctl.js'), join(dir, 'bin', 'msgctl.js'));
  // ES modules, as the installed package says in its package.json: without it, Node looks for one
  // no further than node_modules/ and reads bin/ and dist/*.js as CommonJS (a Node older than
  // 20.19 then fails on the bin's first await instead of refusing with its message; a newer one
  // parses each file twice to find out).
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  process.env.MSGCTL_TEST_BIN = join(dir, 'bin/msgctl.js');
  // The throwaway homes of isolatedEnv() (config, state, caches of every spawned msgctl) go
  // under one folder, removed with the run: a run spawns a thousand commands.
  const homes = mkdtempSync(join(tmpdir(), 'msgctl-test-run-'));
  process.env.MSGCTL_TEST_HOMES = homes;
  // The compiled-code cache every spawned msgctl shares (helpers/cli.ts isolatedEnv), owner-only as msgctl wants it.
  mkdirSync(join(homes, 'cache'), { mode: 0o700 });
  // Every temporary folder a test makes (os.tmpdir(), in the workers, which start after this and
  // inherit the environment) goes under the run's folder too, and so is removed with it: a file
  // that forgot its own clean-up left ~90 folders in /tmp per run. Others may pass through it, as
  // through /tmp (the two-user tests run processes as other users on folders made there); the
  // homes and the cache beside it are 0700.
  const temporary = join(homes, 'tmp');
  mkdirSync(temporary);
  chmodSync(homes, 0o755);
  chmodSync(temporary, 0o755);
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = temporary;
  return () => {
    // Retries: on Windows a file still open for a moment (a process that just ended, a virus scanner) is EBUSY.
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    rmSync(homes, { recursive: true, force: true, maxRetries: 3 });
  };
}
