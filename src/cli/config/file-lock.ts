/**
 * A lock shared by every msgctl process of one user: around each
 * read-modify-write of the config file and the credential store, and around
 * an OAuth refresh (docs/security.md, "Concurrent use"). Cron jobs run
 * msgctl in parallel against one profile; without it, two processes that
 * read the same file each write back their own copy and one change is lost,
 * and two refreshes of one rotating refresh token revoke the whole session.
 *
 * The lock is a file created exclusively (O_EXCL: never through a link or a
 * file already there) in a folder only the user can change, holding the
 * owner's pid. A lock whose owner is no longer running (a crash, a kill -9) is
 * stale and taken over; so is one older than STALE_MS, in case the pid was
 * reused. A lock file that is not the user's own (planted) is refused.
 *
 * Taking over is atomic (removeStaleLock): of many processes that find the same
 * stale lock, exactly one removes it, and none removes a lock taken since.
 */
import { basename, dirname, join } from 'node:path';
import { CliError } from '../errors.js';
import { ensureOwnFolder, openOwn } from '../util/own-files.js';

const fs = process.getBuiltinModule('node:fs');

/** No critical section takes this long (an OAuth refresh is bounded by its request timeout). */
const STALE_MS = 120_000;
const DEFAULT_WAIT_MS = 60_000;

export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
  const held = await acquire(lockPath, options.waitMs ?? DEFAULT_WAIT_MS);
  try {
    return await fn();
  } finally {
    try {
      fs.unlinkSync(held);
    } catch {
      // gone already
    }
  }
}

/** Takes the lock; returns the lock file's path in its checked, resolved folder. */
async function acquire(lockPath: string, waitMs: number): Promise<string> {
  const what = 'the lock file';
  const path = join(ensureOwnFolder(dirname(lockPath), 'the lock folder'), basename(lockPath));
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (createLockFile(path, String(process.pid), what)) return path;
    const seen = readLockFile(path, what);
    if (seen && isStale(seen)) {
      removeStaleLock(path, seen, what);
      continue;
    }
    if (Date.now() - started > waitMs) {
      throw new CliError(`Another msgctl has held ${lockPath} for over ${Math.round(waitMs / 1000)} s.`, undefined, [
        `If no other msgctl is running, delete ${lockPath}.`,
      ]);
    }
    // Short, jittered waits: the critical sections are a file rewrite or one token request.
    await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 + attempt * 5) + Math.random() * 20));
  }
}

function isStale(seen: LockFile): boolean {
  const age = Date.now() - seen.mtimeMs;
  if (age > STALE_MS) return true;
  const pid = Number(seen.text.trim());
  // Empty: its owner is between creating and writing it (or died there: then it ages out).
  if (!Number.isInteger(pid) || pid <= 0) return age > 5_000;
  return !isRunning(pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock file as read: what it says, and what identifies this very file. */
export interface LockFile {
  text: string;
  ino: number;
  mtimeMs: number;
}

/**
 * Creates the lock file at `path` (in a checked folder) exclusively, 0600, holding `text`;
 * false when one exists already.
 */
export function createLockFile(path: string, text: string, what: string): boolean {
  let fd;
  try {
    fd = openOwn(path, 'create', what);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeFileSync(fd!, text);
  } finally {
    fs.closeSync(fd!);
  }
  return true;
}

/** The lock file at `path`, or null when there is none; refused (UnsafeFileError) when it is not the user's own. */
export function readLockFile(path: string, what: string): LockFile | null {
  const fd = openOwn(path, 'read', what);
  if (fd === null) return null;
  try {
    const stat = fs.fstatSync(fd);
    if (stat.nlink === 0) return null; // released while being read
    return { text: fs.readFileSync(fd, 'utf8'), ino: stat.ino, mtimeMs: stat.mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Removes the stale lock `seen` from `path`, unless another process does so first or the
 * lock at `path` is no longer that one. Several processes may find one lock stale at once;
 * removing it by name would let a late one remove the lock a faster one took meanwhile,
 * and both would be inside. So a process first creates `<lock>.<ino>-<mtime>.takeover`
 * exclusively (one winner per stale lock), reads the lock again under it, removes it only
 * if it is still the same file (inode, time and text), and then drops its marker. A marker
 * older than a minute was left by a process killed in these few system calls: removed.
 * Everything here is synchronous, so no other work of this process runs in between.
 */
export function removeStaleLock(path: string, seen: LockFile, what: string): void {
  const marker = `${path}.${seen.ino}-${Math.trunc(seen.mtimeMs)}.takeover`;
  if (!createLockFile(marker, String(process.pid), what)) {
    const left = readLockFile(marker, what);
    if (left && Date.now() - left.mtimeMs > 60_000) fs.rmSync(marker, { force: true });
    return; // another process is taking it over: try again
  }
  try {
    const now = readLockFile(path, what);
    if (now && now.ino === seen.ino && now.mtimeMs === seen.mtimeMs && now.text === seen.text) fs.unlinkSync(path);
  } finally {
    fs.rmSync(marker, { force: true });
  }
}
