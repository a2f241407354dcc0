/**
 * msgctl as a release ships it and `npm install -g` leaves it. One `npm pack`
 * of a clean checkout (tracked files only, no dist/ yet) serves both halves:
 * what the package holds (prepack must build the code, and only what users
 * run may go in: no source maps, which carry the whole TypeScript source, no
 * sources, tests, fixtures or tooling), and the package installed into a
 * private prefix with node beside it, as the docs' ways of installing Node
 * do: `man msgctl` finds its page, help's doc links exist, and the scheduler
 * examples of docs/platforms.md run as written (paths replaced by this
 * install's) under the scheduler's own environment — cron's
 * `env -i PATH=… HOME=…` and `/bin/sh -c`, launchd's plist PATH and working
 * directory. (issue 29 items 1, 2 and 6)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { codeBlocks, parseCrontab, parsePlist, repoRoot } from '../helpers/doc-blocks.js';

const sandbox = useSandbox();
const scratch = mkdtempSync(join(tmpdir(), 'msgctl-installed-'));
const prefix = join(scratch, 'prefix');
const bin = join(prefix, 'bin');
const home = join(scratch, 'home');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The environment cron gives a job: nothing but what the crontab sets, and HOME, LOGNAME, SHELL. */
const cronEnv = (path: string) => ({ PATH: path, HOME: home, LOGNAME: 'msgctl', SHELL: '/bin/sh', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });

async function sh(command: string, env: Record<string, string>, cwd: string) {
  const r = await execa('/bin/sh', ['-c', command], { env, extendEnv: false, cwd, reject: false, timeout: 60_000 });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** A folder holding the tour's batch files, as /srv/reminders would. */
function reminders(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const file of ['tomorrow.csv', 'reminder.txt']) cpSync(join(repoRoot, 'examples', file), join(dir, file));
  return dir;
}

const posix = process.platform !== 'win32';
const hasMan = posix && spawnSync('man', ['--version']).status === 0;

/** What `npm pack` put in the tarball, and package.json as packed. */
let packedFiles: string[] = [];
let packedManifest: { man?: string[] } = {};

beforeAll(async () => {
  const deadline = Date.now() + 290_000; // the hook's 300 s, less a margin (npmStep below)
  // A clean checkout (tracked files only), packed as `npm pack` would on release.
  const checkout = join(scratch, 'checkout');
  for (const file of execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' }).split('\0').filter(Boolean)) {
    if (existsSync(join(repoRoot, file))) cpSync(join(repoRoot, file), join(checkout, file), { recursive: true });
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(checkout, 'node_modules'), 'junction');
  // No dist/ yet: whatever the tarball holds of it, prepack built.
  expect(existsSync(join(checkout, 'dist'))).toBe(false);
  // `npm install -g` of the tarball resolves its dependencies' version ranges, which `npm ci` never
  // cached: it asks the registry. A registry request that stalls would wait out npm's default
  // fetch-timeout (5 minutes, the whole hook: seen twice on a fresh machine), so each request gets
  // 30 s and more retries, and each npm step a bound that names it when it fails.
  const npmEnv = {
    ...process.env,
    npm_config_loglevel: 'error',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_fetch_timeout: '30000',
    npm_config_fetch_retries: '4',
  };
  // Each npm step gets what is left of the hook's 300 s (less a margin), so a stalled one fails
  // naming itself, and is ended, before the hook's own timeout would.
  const npmStep = () => ({ env: npmEnv, timeout: Math.max(1_000, deadline - Date.now()) });
  // Not execFileSync: a worker blocked for the whole build cannot answer vitest (onTaskUpdate timeouts).
  const packed = await execa('npm', ['pack', '--json', '--pack-destination', scratch], { ...npmStep(), cwd: checkout });
  const [result] = JSON.parse(String(packed.stdout).slice(String(packed.stdout).indexOf('['))) as { filename: string; files: { path: string }[] }[];
  packedFiles = result!.files.map((f) => f.path);
  packedManifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { man?: string[] };
  if (!posix) return;
  const tarball = join(scratch, result!.filename);
  await execa('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], npmStep());
  // node beside msgctl, as NodeSource (/usr/bin), Homebrew or the npm-registry way into ~/.local give it.
  symlinkSync(process.execPath, join(bin, 'node'));
  mkdirSync(home, { recursive: true });
  // The "clinic" profile a job uses: the key in the 0600 file, since cron has no keychain.
  const setKey = await execa(join(bin, 'msgctl'), ['--profile', 'clinic', '--base-url', sandbox.current.baseUrl, 'auth', 'set-key', '--insecure-storage'], {
    env: cronEnv(`${bin}:/usr/bin:/bin`),
    extendEnv: false,
    input: sandbox.current.credentials.api_key,
    reject: false,
  });
  expect(setKey.exitCode, setKey.stderr).toBe(0);
}, 300_000);

describe('npm pack', () => {
  it('builds on prepack and ships dist, bin, docs and examples, and nothing else', () => {
    for (const needed of ['bin/msgctl.js', 'dist/cli.cjs', 'dist/command-line.json', 'dist/code-cache.js', 'dist/sandbox/entry.js', 'dist/version.js', 'dist/root-help.js', 'dist/help-render.js', 'dist/man/msgctl.1', 'docs/README.md', 'README.md', 'package.json']) {
      expect(packedFiles, needed).toContain(needed);
    }
    expect(packedFiles.some((f) => f.startsWith('docs/'))).toBe(true);
    expect(packedFiles.some((f) => f.startsWith('examples/'))).toBe(true);
    const unexpected = packedFiles.filter(
      (f) =>
        f.endsWith('.map') ||
        f.endsWith('.ts') ||
        /^(src|test|bench|scripts|\.ci)\//.test(f) ||
        f.includes('fixtures') ||
        // bin/code-cache.js and bin/own-path.js run as dist/code-cache.js (the build inlines one into the other).
        (f.startsWith('bin/') && f !== 'bin/msgctl.js'),
    );
    expect(unexpected).toEqual([]);
    expect(packedFiles.every((f) => /^(bin|dist|docs|examples)\//.test(f) || ['README.md', 'package.json', 'LICENSE'].includes(f))).toBe(true);
    // npm installs the man page from package.json's "man", so `man msgctl` finds msgctl(1).
    expect(packedManifest.man).toEqual(['./dist/man/msgctl.1']);
  });
});

describe.skipIf(!posix)('installed with npm install -g', () => {
  it('npm links the man page into the prefix', () => {
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'msgctl.1'))).toBe(true);
  });

  it.skipIf(!hasMan)(`\`man msgctl\` finds msgctl(1), not the msgctl(2) system call${hasMan ? '' : ' — skipped: man is not installed (CI installs man-db)'}`, async () => {
    const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: home };
    const man = await execa('man', ['-w', 'msgctl'], { env, extendEnv: false });
    expect(String(man.stdout).trim()).toMatch(/msgctl\/dist\/man\/msgctl\.1$|man1\/msgctl\.1$/);
    const page = await execa('man', ['msgctl'], { env: { ...env, MANPAGER: 'cat', MANWIDTH: '80' }, extendEnv: false });
    expect(String(page.stdout)).toMatch(/^MSGCTL\(1\)/);
  });

  it('help points at docs that exist in the installed package', async () => {
    const help = await execa(join(bin, 'msgctl'), ['--help'], { env: cronEnv(`${bin}:/usr/bin:/bin`), extendEnv: false });
    const docs = /Docs: man msgctl, and\s+(\S+README\.md)/.exec(String(help.stdout))?.[1];
    expect(docs).toBe(join(prefix, 'lib', 'node_modules', 'msgctl', 'docs', 'README.md'));
    expect(existsSync(docs!)).toBe(true);
  });

  it('cron: the documented crontab runs the batch once, the 19:30 line sends nothing more', async () => {
    const { variables, jobs } = parseCrontab(codeBlocks('docs/platforms.md', 'crontab')[0]!);
    const dir = reminders('cron');
    const path = variables.PATH!.replace('/usr/local/bin', bin);
    const before = sandbox.current.testing.requests().filter((q) => q.method === 'POST').length;
    for (const job of jobs) {
      const r = await sh(job.replace('/srv/reminders', dir), cronEnv(path), home);
      expect(r.exitCode, readFileSync(join(dir, 'reminders.log'), 'utf8')).toBe(0);
    }
    // The 19:30 run reports each row as sent by the earlier run (already_done), and sends nothing.
    const lines = readFileSync(join(dir, 'sent.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.row, l.outcome, l.already_done ?? false])).toEqual([
      [2, 'sent', false], [3, 'sent', false], [4, 'sent', false],
      [2, 'sent', true], [3, 'sent', true], [4, 'sent', true],
    ]);
    expect(sandbox.current.testing.requests().filter((q) => q.method === 'POST').length - before).toBe(3);
  });

  it('cron without the PATH line finds no msgctl (exit 127): what the PATH line is for', async () => {
    if (existsSync('/usr/bin/msgctl') || existsSync('/bin/msgctl')) return;
    const { jobs } = parseCrontab(codeBlocks('docs/platforms.md', 'crontab')[0]!);
    const r = await sh(jobs[0]!.replace('/srv/reminders', reminders('cron-bare')), cronEnv('/usr/bin:/bin'), home);
    expect(r.exitCode).toBe(127);
  });

  it('cron: the absolute-path form needs no PATH line', async () => {
    const { jobs } = parseCrontab(codeBlocks('docs/platforms.md', 'crontab')[1]!);
    const dir = reminders('cron-absolute');
    const job = jobs[0]!.replace('/srv/reminders', dir).replace('/usr/local/bin/node', join(bin, 'node')).replace('/usr/local/lib/node_modules', join(prefix, 'lib', 'node_modules'));
    const r = await sh(job, cronEnv('/usr/bin:/bin'), home);
    expect(r.exitCode, readFileSync(join(dir, 'reminders.log'), 'utf8')).toBe(0);
  });

  it('launchd: the plist\'s program, PATH and working directory run the batch', async () => {
    const plist = (await parsePlist(codeBlocks('docs/platforms.md', 'xml').find((b) => b.includes('<plist'))!)) as Record<string, any>;
    const dir = reminders('launchd');
    // launchd starts ProgramArguments with EnvironmentVariables in WorkingDirectory; this install stands in for Homebrew's.
    const path = (plist.EnvironmentVariables.PATH as string).replace('/usr/local/bin', bin);
    const [program, ...args] = plist.ProgramArguments as string[];
    const r = await execa(program!, args, { env: cronEnv(path), extendEnv: false, cwd: dir, reject: false, timeout: 60_000 });
    expect(r.exitCode, readFileSync(join(dir, 'reminders.log'), 'utf8')).toBe(0);
    expect(readFileSync(join(dir, 'sent.jsonl'), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(3);
  });
});
