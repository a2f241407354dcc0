/**
 * The path rules of bin/own-path.js, which the code cache (bin/code-cache.js) and the
 * CLI's own files (src/cli/util/own-files.ts, which bundles it) share: one table of
 * cases, checked through the CLI's wrapper, which also names what is wrong. Cases with
 * another user's files need root (chown); they are skipped elsewhere, saying so.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, closeSync, lchownSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFolder } from '../../bin/own-path.js';
import { openOwn, ownFolder, ownNamedFile, readOwnText, UnsafeFileError } from '../../src/cli/util/own-files.js';
import { UsageError } from '../../src/cli/errors.js';
import { execFileSync, spawn, spawnSync } from 'node:child_process';

const posix = process.platform !== 'win32';
const root = process.getuid?.() === 0;
const OTHER = 65534;
const base = realpathSync(mkdtempSync(join(tmpdir(), 'msgctl-own-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
function folder(mode = 0o700): string {
  const path = join(base, `f${n++}`);
  mkdirSync(path);
  chmodSync(path, mode);
  return path;
}

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UnsafeFileError);
    return (err as Error).message;
  }
  return 'accepted';
}

/**
 * The refusal `fn` meets at a FIFO, within 8 s (it takes milliseconds: a non-blocking open and a
 * few lstat calls; the margin is for a loaded machine). Were its open to wait for the other end
 * (no O_NONBLOCK), a helper opens both ends after 10 s, so the test fails on the time taken
 * instead of hanging its worker for good in a synchronous open.
 */
function refusedInTime(fifo: string, fn: () => unknown): { problem: string } {
  const unblocker = spawn('sh', ['-c', 'sleep 10; exec 3<>"$1"; sleep 60', 'sh', fifo], { stdio: 'ignore', detached: true });
  try {
    const started = performance.now();
    const problem = problemOf(fn);
    expect(performance.now() - started).toBeLessThan(8000);
    return { problem };
  } finally {
    // The whole group: sh and the sleep it may have started.
    process.kill(-unblocker.pid!, 'SIGKILL');
  }
}

/** Where the lease test can run: Linux (F_SETLEASE) with python3 to hold the lease. */
const leasesHere = process.platform === 'linux' && spawnSync('python3', ['-c', '']).status === 0;

/**
 * Holds a write lease on argv[1] (`leased`), lets go when the kernel says another open wants the
 * file (SIGIO: `let go`), and gives up after 10 s (exiting releases the lease too), so a test
 * whose open never comes cannot hang. Where the file system or the kernel gives no leases
 * (leases-enable 0, some network or layered file systems), it says `no lease` and why.
 */
const LEASE_HOLDER = `
import fcntl, os, signal, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
asked = []
def let_go(signum, frame):
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    asked.append(True)
signal.signal(signal.SIGIO, let_go)
try:
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
except OSError as e:
    print('no lease:', e.strerror, flush=True)
    sys.exit(0)
print('leased', flush=True)
deadline = time.time() + 10
while not asked and time.time() < deadline:
    time.sleep(0.02)
print('let go' if asked else 'nobody asked', flush=True)
`;

describe.skipIf(!posix)('own folders', () => {
  it('accepts the user\'s own folder, and one reached through the user\'s own link in a sticky folder (resolved)', () => {
    const own = folder();
    expect(ownFolder(own, 'x')).toBe(own);
    const sticky = folder(0o1777);
    symlinkSync(own, join(sticky, 'link'));
    expect(ownFolder(join(sticky, 'link'), 'x')).toBe(own);
    expect(checkFolder(join(sticky, 'link'), { own: true })).toEqual({ path: own });
  });

  it('refuses a folder others can write to, and anything below one', () => {
    const open = folder(0o777);
    mkdirSync(join(open, 'below'), { mode: 0o700 });
    expect(problemOf(() => ownFolder(open, 'the config file'))).toBe(`Refusing to use the config file: ${open} is writable by other users (mode 0777).`);
    expect(problemOf(() => ownFolder(join(open, 'below'), 'x'))).toMatch(`${open} is writable by other users (mode 0777), so they could replace ${join(open, 'below')}`);
    const viaLink = folder();
    symlinkSync(join(open, 'below'), join(viaLink, 'link'));
    expect(problemOf(() => ownFolder(join(viaLink, 'link'), 'x'))).toMatch(`(${join(viaLink, 'link')} leads there)`);
  });

  it.skipIf(!root)('refuses another user\'s folder or link in a sticky folder (skipped unless root: needs chown)', () => {
    const sticky = folder(0o1777);
    const theirs = join(sticky, 'theirs');
    mkdirSync(theirs, { mode: 0o755 });
    chownSync(theirs, OTHER, OTHER);
    expect(problemOf(() => ownFolder(theirs, 'x'))).toMatch(`${theirs} belongs to another user (uid ${OTHER})`);
    const own = folder();
    const link = join(sticky, 'link');
    symlinkSync(own, link);
    // The link itself becomes the other user's; its target stays ours.
    lchownSync(link, OTHER, OTHER);
    expect(problemOf(() => ownFolder(link, 'x'))).toMatch(`${link} belongs to another user (uid ${OTHER})`);
  });
});

describe.skipIf(!posix)('own files', () => {
  it('reads the user\'s own file; none is null', () => {
    const dir = folder();
    writeFileSync(join(dir, 'config.json'), '{}', { mode: 0o600 });
    expect(readOwnText(join(dir, 'config.json'), 'x')).toBe('{}');
    expect(readOwnText(join(dir, 'missing.json'), 'x')).toBeNull();
    expect(readOwnText(join(dir, 'no-folder', 'missing.json'), 'x')).toBeNull();
  });

  it('refuses a link at the name, a second hard link, a file others can write, a secret others can read', () => {
    const dir = folder();
    const file = join(dir, 'file');
    writeFileSync(file, 'x', { mode: 0o600 });
    symlinkSync(file, join(dir, 'link'));
    expect(problemOf(() => readOwnText(join(dir, 'link'), 'the journal'))).toBe(`Refusing to use the journal: ${join(dir, 'link')} is a symbolic link.`);
    linkSync(file, join(dir, 'hard'));
    expect(problemOf(() => readOwnText(file, 'x'))).toMatch(`${file} has 2 hard links`);
    rmSync(join(dir, 'hard'));
    chmodSync(file, 0o666);
    expect(problemOf(() => readOwnText(file, 'x'))).toMatch(`${file} is writable by other users (mode 0666)`);
    chmodSync(file, 0o644);
    expect(readOwnText(file, 'x')).toBe('x');
    expect(problemOf(() => readOwnText(file, 'x', { secret: true }))).toMatch(`${file} can be read by other users (mode 0644)`);
  });

  it('refuses a FIFO at the name at once, for reading, appending or truncating (the user\'s own: a mistake, not an attack)', () => {
    const dir = folder();
    const fifo = join(dir, 'config.json');
    execFileSync('mkfifo', [fifo]);
    // Opening for reading and writing never waits, even without O_NONBLOCK ('update'): not a case.
    for (const how of ['read', 'append', 'truncate'] as const) {
      const took = refusedInTime(fifo, () => openOwn(fifo, how, 'the config file'));
      expect(took.problem).toBe(`Refusing to use the config file: ${fifo} is not a regular file.`);
    }
  });

  // A file under another process's lease (a Samba or NFS server's, here Python's fcntl
  // F_SETLEASE: Linux only; .ci/run installs python3) answers the non-blocking open with EAGAIN;
  // the open is made again, blocking, as any program's would be, and gets the file once the
  // holder lets go. Without that second open, the EAGAIN would end the command.
  it.skipIf(!leasesHere)('waits for a lease on the file to be let go, rather than failing on EAGAIN', async (context) => {
    const dir = folder();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"leased":true}', { mode: 0o600 });
    const holder = spawn('python3', ['-c', LEASE_HOLDER, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let said = '';
    holder.stdout.setEncoding('utf8').on('data', (text: string) => (said += text));
    // 'close', not 'exit': the holder's last line may still be in the pipe at exit.
    const exited = new Promise((resolve) => holder.on('close', resolve));
    await expect.poll(() => said, { timeout: 10_000 }).toMatch(/^(leased|no lease)/);
    // Not a failure of msgctl's: this file system gives no leases. In CI it must run (its /tmp gives
    // them), so there it fails rather than be skipped unseen.
    if (said.startsWith('no lease')) {
      if (process.env.CI) expect.fail(`CI must be able to take a lease on ${file}: ${said.trim()}`);
      context.skip(`${file}: ${said.trim()}`);
    }
    expect(readOwnText(file, 'the config file')).toBe('{"leased":true}');
    await exited;
    // The lease was in force when msgctl opened the file: the holder was asked to let go.
    expect(said).toBe('leased\nlet go\n');
  });

  it('creates exclusively: never over something already at the name', () => {
    const dir = folder();
    const fd = openOwn(join(dir, 'new', 'lock'), 'create', 'x');
    expect(fd).not.toBeNull();
    closeSync(fd!);
    expect(() => openOwn(join(dir, 'new', 'lock'), 'create', 'x')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'dangling'));
    expect(() => openOwn(join(dir, 'dangling'), 'create', 'x')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
  });

  it.skipIf(!root)('refuses another user\'s file, even in a sticky folder where it may be (skipped unless root: needs chown)', () => {
    const sticky = folder(0o1777);
    const planted = join(sticky, 'night.journal');
    writeFileSync(planted, '');
    chmodSync(planted, 0o666);
    chownSync(planted, OTHER, OTHER);
    expect(problemOf(() => openOwn(planted, 'append', 'the journal'))).toBe(`Refusing to use the journal: ${planted} belongs to another user (uid ${OTHER}).`);
  });
});

describe.skipIf(!posix)('a file another program opens by name, with side files (sandbox --data)', () => {
  const sides = ['-wal', '-shm', '-journal'];
  const check = (path: string) => ownNamedFile(path, sides, '--data');

  it('accepts a new or existing file of the user\'s own in a folder only the user can write, and gives the path back as written', () => {
    const dir = folder();
    expect(check(join(dir, 'world.db'))).toBe(join(dir, 'world.db'));
    writeFileSync(join(dir, 'world.db'), '');
    writeFileSync(join(dir, 'world.db-wal'), '');
    chmodSync(join(dir, 'world.db-wal'), 0o644); // an older run's: the sandbox tightens it
    expect(check(join(dir, 'world.db'))).toBe(join(dir, 'world.db'));
  });

  it('refuses a folder others can write, sticky or not, even the user\'s own: they could plant FILE-wal first', () => {
    for (const mode of [0o1777, 0o777]) {
      const dir = folder(mode);
      const message = problemOf(() => check(join(dir, 'world.db')));
      expect(message).toBe(`Refusing to use --data ${join(dir, 'world.db')}: ${dir} is writable by other users (mode ${mode.toString(8).padStart(4, '0')}).`);
    }
    let caught: unknown;
    try {
      check(join(folder(0o1777), 'world.db'));
    } catch (err) {
      caught = err;
    }
    expect((caught as UnsafeFileError).hints.join(' ')).toContain('Keep --data in a folder of your own that only you can write (not /tmp)');
  });

  it('refuses a link, a second hard link, a file others can write, or a FIFO at the name or a side file\'s, without hanging', () => {
    const dir = folder();
    const db = join(dir, 'world.db');
    const outside = join(folder(), 'elsewhere');
    writeFileSync(outside, '');
    symlinkSync(outside, `${db}-wal`);
    expect(problemOf(() => check(db))).toBe(`Refusing to use --data ${db}: ${db}-wal is a symbolic link.`);
    rmSync(`${db}-wal`);
    linkSync(outside, `${db}-shm`);
    expect(problemOf(() => check(db))).toBe(`Refusing to use --data ${db}: ${db}-shm has 2 hard links (another name could change it).`);
    rmSync(`${db}-shm`);
    writeFileSync(db, '');
    chmodSync(db, 0o666);
    expect(problemOf(() => check(db))).toBe(`Refusing to use --data ${db}: ${db} is writable by other users (mode 0666).`);
    rmSync(db);
    execFileSync('mkfifo', [`${db}-journal`]);
    expect(refusedInTime(`${db}-journal`, () => check(db)).problem).toBe(`Refusing to use --data ${db}: ${db}-journal is not a regular file.`);
  });

  it('is a usage error (exit 2), not a refusal, when the folder is missing or not a folder', () => {
    const dir = folder();
    writeFileSync(join(dir, 'a-file'), '');
    for (const path of [join(dir, 'missing', 'world.db'), join(dir, 'a-file', 'world.db')]) {
      let caught: unknown;
      try {
        check(path);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(UsageError);
      expect((caught as Error).message).toMatch(new RegExp(`^Cannot open --data ${path}: .*\\(its directory must exist and be writable\\)\\.$`));
    }
  });
});
