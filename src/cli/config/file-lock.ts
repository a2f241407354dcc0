/**
 * A lock shared by every msgctl process of one user: around each
 * read-modify-write of the config file and the credential store, and around
 * an OAuth refresh (docs/security.md, "Concurrent use"). Cron jobs run
 * msgctl in parallel against one profile; without it, two processes that
 * read the same file each write back their own copy and one change is lost,
 * and two refreshes of one rotating refresh token revoke the whole session.
 *
 * The lock is a file created with O_EXCL holding the owner's pid. A lock
 * whose owner is no longer running (a crash, a kill -9) is stale and taken
 * over; so is one older than STALE_MS, in case the pid was reused.
 */
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError } from '../errors.js';

/** No critical section takes this long (an OAuth refresh is bounded by its request timeout). */
const STALE_MS = 120_000;
const DEFAULT_WAIT_MS = 60_000;

export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
  await acquire(lockPath, options.waitMs ?? DEFAULT_WAIT_MS);
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function acquire(lockPath: string, waitMs: number): Promise<void> {
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await isStale(lockPath)) {
      await unlink(lockPath).catch(() => undefined);
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

async function isStale(lockPath: string): Promise<boolean> {
  let info;
  try {
    info = await stat(lockPath);
  } catch {
    return false; // gone already: the next attempt creates it
  }
  const age = Date.now() - info.mtimeMs;
  if (age > STALE_MS) return true;
  const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
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
