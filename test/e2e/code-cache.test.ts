/**
 * Compiled code kept between runs (bin/code-cache.js): V8's compile cache for the
 * packages, and the code a command compiled in dist/cli.cjs, both in the user's own
 * cache folder, owner-only; a folder that cannot be made, a damaged cache or a
 * failing command never breaks (or hangs) a command.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { binPath, isolatedEnv, msgctl } from '../helpers/cli.js';

const posix = process.platform !== 'win32';

/**
 * An environment whose cache root is `root`, and the msgctl folder bin/code-cache.js then uses:
 * the platform's own place (macOS ignores XDG_CACHE_HOME, Windows uses LOCALAPPDATA).
 */
function cacheAt(root: string): { env: Record<string, string | undefined>; folder: string } {
  if (process.platform === 'darwin') return { env: isolatedEnv({ HOME: root }), folder: join(root, 'Library', 'Caches', 'msgctl') };
  if (process.platform === 'win32') return { env: isolatedEnv({ LOCALAPPDATA: root }), folder: join(root, 'msgctl', 'Cache') };
  return { env: isolatedEnv({ XDG_CACHE_HOME: root }), folder: join(root, 'msgctl') };
}

/** A fresh cache home; `code` is where the bundle's compiled code goes. */
function cacheHome() {
  const { env, folder } = cacheAt(join(mkdtempSync(join(tmpdir(), 'msgctl-cache-')), 'new', 'cache'));
  return { env, code: join(folder, 'code'), compile: join(folder, 'compile') };
}

/** The folder's files but this user's secret (bin/code-cache.js). */
const listing = (folder: string) => readdirSync(folder).filter((name) => name !== 'secret');
const cacheFiles = (folder: string, command: string) => (existsSync(folder) ? readdirSync(folder).filter((name) => name.startsWith(`cli.${command}.`)) : []);

describe('compile cache', () => {
  it("is kept in the platform's cache folder (XDG_CACHE_HOME/msgctl/compile on Linux), created owner-only", async () => {
    const home = cacheHome();
    expect((await msgctl(['completion', 'bash'], { env: home.env })).exitCode).toBe(0);
    expect(existsSync(home.compile)).toBe(true);
    if (posix) expect(statSync(home.compile).mode & 0o777).toBe(0o700);
    expect(readdirSync(home.compile).length).toBeGreaterThan(0);
  });

  it('is not touched by the prebuilt answers (--version, --help, a command\'s --help)', async () => {
    const home = cacheHome();
    for (const args of [['--version'], ['--help'], ['send', '--help']]) {
      expect((await msgctl(args, { env: home.env })).exitCode, args.join(' ')).toBe(0);
    }
    expect(existsSync(join(home.compile, '..'))).toBe(false);
  });

  it('is shared with the batch thread in the same folder, not a copy one level down', async () => {
    const home = cacheHome();
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-cache-csv-'));
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'phone,first_name\n(212) 555-0100,Ada\n');
    // Nothing listens there: the thread starts, compiles, and ends on the first request (exit 1).
    const env = { ...home.env, MSGCTL_BASE_URL: 'http://127.0.0.1:9/v1', MSGCTL_API_KEY: 'msk_test_unused' };
    const r = await msgctl(['send', '--csv', csv, '--template', 'Hi {first_name}', '--dry-run', '--retries', '0'], { env });
    expect(r.stderr).toMatch(/127\.0\.0\.1:9/);
    // Node keys its cache by version in a folder of its own (v24.…-x64-…); the thread's must be the same one.
    const versions = readdirSync(home.compile);
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) {
      const inside = readdirSync(join(home.compile, version), { withFileTypes: true });
      expect(inside.filter((entry) => entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    }
  });

  it('runs without it when the folder cannot be made', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'msgctl-cache-')), 'a-file');
    writeFileSync(file, '');
    const places = [join(file, 'below')];
    // Node's own recursive mkdir never returns here; the bin must not hang on it.
    if (process.platform === 'linux') places.push('/proc/msgctl-no-such-dir');
    // (A command that loads the tree: the prebuilt answers never look for the cache, as above.)
    for (const place of places) {
      const r = await msgctl(['completion', 'bash'], { env: cacheAt(place).env, timeout: 15_000 });
      expect(r.exitCode, place).toBe(0);
      expect(r.stdout).toMatch(/_msgctl_completion/);
    }
  });
});

describe("a command's compiled code", () => {
  it('is saved after the first run, owner-only, and used as it is by the next', async () => {
    const home = cacheHome();
    const first = await msgctl(['completion', 'bash'], { env: home.env });
    expect(first.exitCode).toBe(0);
    const [name] = cacheFiles(home.code, 'completion');
    expect(name).toMatch(new RegExp(`^cli\\.completion\\.[0-9a-f]{8}\\.${process.versions.node.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{8}-[0-9a-f]{16}-\\d+-\\d+-\\d+\\.v8$`));
    const file = join(home.code, name!);
    if (posix) {
      expect(statSync(home.code).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    expect(statSync(file).size).toBeGreaterThan(10_000);
    const saved = statSync(file);

    const second = await msgctl(['completion', 'bash'], { env: home.env });
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // V8 took it: a rejected cache would have been written again (a new file renamed into place).
    expect(statSync(file).ino).toBe(saved.ino);
    expect(statSync(file).mtimeMs).toBe(saved.mtimeMs);
    expect(listing(home.code).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('is written again when the file is damaged, and the command still works', async () => {
    const home = cacheHome();
    const first = await msgctl(['completion', 'bash'], { env: home.env });
    const [name] = cacheFiles(home.code, 'completion');
    const file = join(home.code, name!);
    for (const damage of [Buffer.from('not V8 code at all'), readFileSync(file).subarray(0, 4096)]) {
      writeFileSync(file, damage);
      const again = await msgctl(['completion', 'bash'], { env: home.env });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toBe(first.stdout);
      expect(again.stderr).toBe('');
      expect(statSync(file).size).toBeGreaterThan(10_000);
    }
  });

  it("removes what an older build of the same install left for this Node version, and keeps other Node versions' and installs'", async () => {
    const home = cacheHome();
    await msgctl(['completion', 'bash'], { env: home.env });
    const [current] = cacheFiles(home.code, 'completion');
    const [, key, install] = /^cli\.(completion\.[0-9a-f]{8})\.[^-]+-[^-]+-([0-9a-f]{8})-/.exec(current!)!;
    const node = `${process.versions.node}-${process.arch}`;
    const older = `cli.${key}.${node}-${install}-1-2-3.v8`;
    const olderOtherCommand = `cli.org.811c9dc5.${node}-${install}-1-2-3.v8`;
    const otherInstall = `cli.${key}.${node}-0000abcd-1-2-3.v8`;
    const otherNode = `cli.${key}.0.0.1-${process.arch}-${install}-1-2-3.v8`;
    for (const name of [older, olderOtherCommand, otherInstall, otherNode]) writeFileSync(join(home.code, name), 'x');
    writeFileSync(join(home.code, current!), 'damaged, so it is written again');
    expect((await msgctl(['completion', 'bash'], { env: home.env })).exitCode).toBe(0);
    expect(listing(home.code).sort()).toEqual([current, otherInstall, otherNode].sort());
  });

  it(`keeps this build's code for at most ${24} command lines, dropping the oldest`, async () => {
    const home = cacheHome();
    await msgctl(['completion', 'bash'], { env: home.env });
    const [current] = cacheFiles(home.code, 'completion');
    const rest = current!.slice(current!.indexOf('.', 'cli.completion.'.length));
    // 30 command lines' code of this very build, the first ones oldest.
    const names = Array.from({ length: 30 }, (_, i) => `cli.org.${String(i).padStart(8, '0')}${rest}`);
    names.forEach((name, i) => {
      writeFileSync(join(home.code, name), 'x');
      utimesSync(join(home.code, name), 1_000_000 + i, 1_000_000 + i);
    });
    rmSync(join(home.code, current!));
    expect((await msgctl(['completion', 'bash'], { env: home.env })).exitCode).toBe(0);
    expect(listing(home.code).sort()).toEqual([current!, ...names.slice(7)].sort());
  });

  it("is another build's when the bundle's build id differs, even at the same size, inode and time (an npm upgrade)", async () => {
    // An install of its own (beside the test build, so its packages resolve), whose bundle gets a new id in place.
    const built = join(dirname(binPath()), '..');
    const install = `${built}-upgrade`;
    rmSync(install, { recursive: true, force: true });
    // The whole test build, as global-setup.ts lays it out, so this copy cannot miss a part of it.
    cpSync(built, install, { recursive: true });
    try {
      const home = cacheHome();
      const bin = join(install, 'bin', 'msgctl.js');
      const run = () => execFileSync(process.execPath, [bin, 'completion', 'bash'], { env: home.env, encoding: 'utf8' });
      const bundle = join(install, 'dist', 'cli.cjs');
      // npm gives every file it installs this time (1985-10-26T08:15:00Z).
      const NPM_TIME = 499162500;
      utimesSync(bundle, NPM_TIME, NPM_TIME);
      const first = run();
      const [before] = cacheFiles(home.code, 'completion');
      const text = readFileSync(bundle, 'utf8');
      const id = /^\/\*msgctl-build:([0-9a-f]{16})\*\//.exec(text)![1]!;
      const other = id.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      const { ino } = statSync(bundle);
      writeFileSync(bundle, text.replace(id, other)); // same file, same size
      utimesSync(bundle, NPM_TIME, NPM_TIME);
      expect(statSync(bundle).ino).toBe(ino);
      expect(run()).toBe(first);
      const [after] = cacheFiles(home.code, 'completion');
      expect(before).toContain(`-${id}-`);
      expect(after).toBe(before!.replace(`-${id}-`, `-${other}-`));
    } finally {
      rmSync(install, { recursive: true, force: true });
    }
  });

  it('is named by the command, after any global options, and by the options given', async () => {
    const home = cacheHome();
    const plain = await msgctl(['completion', 'bash'], { env: home.env });
    const [name] = cacheFiles(home.code, 'completion');
    // Other options: code of its own (a `send --csv` runs other code than a `send --dry-run`).
    const quiet = await msgctl(['--quiet', 'completion', 'bash'], { env: home.env });
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe(plain.stdout);
    const both = cacheFiles(home.code, 'completion');
    expect(both).toHaveLength(2);
    // The same options again, in another order and with other values: read, not written again.
    const saved = both.map((n) => statSync(join(home.code, n)).mtimeMs);
    for (const args of [['completion', '--quiet', 'zsh'], ['--quiet', 'completion', 'bash']]) {
      expect((await msgctl(args, { env: home.env })).exitCode).toBe(0);
    }
    expect(cacheFiles(home.code, 'completion')).toEqual(both);
    expect(both.map((n) => statSync(join(home.code, n)).mtimeMs)).toEqual(saved);
    expect(both).toContain(name);
    expect(listing(home.code)).toHaveLength(2); // none under `_`
  });

  it("is not named by a global option's value that reads like a command (`--profile org completion …`)", async () => {
    const home = cacheHome();
    const r = await msgctl(['--profile', 'org', 'completion', 'bash'], { env: home.env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cacheFiles(home.code, 'completion')).toHaveLength(1);
    expect(listing(home.code)).toHaveLength(1);
  });

  it('is not saved by a command that fails, nor for words that are not commands', async () => {
    const home = cacheHome();
    const usage = await msgctl(['send'], { env: home.env });
    expect(usage.exitCode).not.toBe(0);
    const unknown = await msgctl(['no-such-command'], { env: home.env });
    expect(unknown.exitCode).not.toBe(0);
    expect(existsSync(home.code) ? listing(home.code) : []).toEqual([]);
  });

  it.skipIf(!posix)('is neither read nor written in a folder others can write to', async () => {
    const home = cacheHome();
    const first = await msgctl(['completion', 'bash'], { env: home.env });
    const [name] = cacheFiles(home.code, 'completion');
    // What another user could have planted: any bytes at all.
    writeFileSync(join(home.code, name!), 'planted');
    chmodSync(home.code, 0o777);
    const again = await msgctl(['completion', 'bash'], { env: home.env });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(readFileSync(join(home.code, name!), 'utf8')).toBe('planted');
    expect(listing(home.code)).toEqual([name]);
  });

  it.skipIf(!posix)('is neither read nor written below a folder others can write to (not sticky)', async () => {
    const shared = join(mkdtempSync(join(tmpdir(), 'msgctl-cache-')), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const { env, folder } = cacheAt(join(shared, 'cache'));
    for (let i = 0; i < 2; i++) expect((await msgctl(['completion', 'bash'], { env })).exitCode).toBe(0);
    expect(cacheFiles(join(folder, 'code'), 'completion')).toEqual([]);
    // The same place once only its owner can write there: the cache is used.
    chmodSync(shared, 0o755);
    for (let i = 0; i < 2; i++) expect((await msgctl(['completion', 'bash'], { env })).exitCode).toBe(0);
    expect(cacheFiles(join(folder, 'code'), 'completion')).toHaveLength(1);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const home = cacheHome();
    const r = await msgctl(['completion', 'bash'], { env: { ...home.env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(r.exitCode).toBe(0);
    expect(existsSync(home.code)).toBe(false);
  });
});
