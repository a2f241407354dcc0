/**
 * One sender per journal: cron runs that overlap would both send the rows the
 * first has not journalled yet. The lock file says whose it is:
 *
 *   {"pid":…, "host":…, "started_at":…, "boot_at":…}  (times in ms since the epoch)
 *
 * and its modification time is a heartbeat the holder renews every 15 s. A PID
 * alone is not an owner: Windows reuses PIDs within minutes and clinic PCs
 * reboot overnight, so a lock left by a crash could name some other live
 * process and block the nightly batch for good. A lock is stale when
 *   - its heartbeat is older than STALE_AFTER_MS (the holder crashed or hung), or
 *   - on this host: the machine rebooted since, the PID is gone, or the process
 *     with that PID started after the lock was taken (PID reused; Linux can tell).
 * A lock from another host (a journal on a shared drive) is judged by its heartbeat only.
 */
import { unlink, utimes } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { hostname, uptime } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { CliError } from '../errors.js';
import { createLockFile, readLockFile, removeStaleLock } from '../config/file-lock.js';
import { ensureOwnFolder } from '../util/own-files.js';
import { holdFile, releaseFile } from '../util/held-files.js';

export const HEARTBEAT_MS = 15_000;
export const STALE_AFTER_MS = 90_000;
/** Boot times computed from uptime drift a little (clock adjustments); a reboot moves them by far more. */
const BOOT_TOLERANCE_MS = 120_000;
/** Start times from /proc are in clock ticks (1/100 s on Linux) and the lock is taken a moment after start. */
const START_TOLERANCE_MS = 2_000;

export interface LockOwner {
  pid: number;
  host?: string;
  started_at?: number;
  boot_at?: number;
}

/** What can be known about this machine and its processes; injected in tests. */
export interface Machine {
  host: string;
  bootAt: number;
  now: number;
  isAlive(pid: number): boolean;
  /** When process `pid` started (ms since the epoch), or undefined where the OS does not say cheaply. */
  startedAt(pid: number): number | undefined;
}

export type Verdict = { stale: true; why: string } | { stale: false };

/** `heartbeatAt` is the lock file's modification time. */
export function judgeLock(owner: LockOwner, heartbeatAt: number, machine: Machine): Verdict {
  if (machine.now - heartbeatAt > STALE_AFTER_MS) return { stale: true, why: 'no heartbeat' };
  if (owner.host !== undefined && owner.host !== machine.host) return { stale: false };
  if (owner.boot_at !== undefined && Math.abs(owner.boot_at - machine.bootAt) > BOOT_TOLERANCE_MS) return { stale: true, why: 'rebooted since' };
  if (!machine.isAlive(owner.pid)) return { stale: true, why: 'process gone' };
  const started = machine.startedAt(owner.pid);
  // The process now holding that PID started after the lock was taken (or at another time than
  // the owner recorded): it is not the owner.
  const takenBy = owner.started_at ?? heartbeatAt;
  if (started !== undefined && owner.started_at !== undefined && Math.abs(started - owner.started_at) > START_TOLERANCE_MS) {
    return { stale: true, why: 'PID reused' };
  }
  if (started !== undefined && owner.started_at === undefined && started > takenBy + START_TOLERANCE_MS) {
    return { stale: true, why: 'PID reused' };
  }
  return { stale: false };
}

/** Reads a lock file: today's JSON, or msgctl 0.1's bare PID. Undefined when unreadable. */
export function parseOwner(text: string): LockOwner | undefined {
  const trimmed = text.trim();
  if (/^[1-9][0-9]*$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const value = JSON.parse(trimmed) as LockOwner;
    if (Number.isInteger(value?.pid) && value.pid > 0) return value;
  } catch {
    // fall through
  }
  return undefined;
}

export function thisMachine(): Machine {
  return {
    host: hostname(),
    bootAt: Date.now() - uptime() * 1000,
    now: Date.now(),
    isAlive,
    startedAt: processStartedAt,
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Linux: from /proc (start in clock ticks after boot). Elsewhere undefined: the heartbeat decides. */
export function processStartedAt(pid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(btime)) return undefined;
    return btime * 1000 + ticks * 10;
  } catch {
    return undefined;
  }
}

function ownSelf(machine: Machine): LockOwner {
  return {
    pid: process.pid,
    host: machine.host,
    started_at: machine.startedAt(process.pid) ?? Math.round(Date.now() - process.uptime() * 1000),
    boot_at: Math.round(machine.bootAt),
  };
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  return `${(s / 3600).toFixed(1)} h ago`;
}

function heldError(owner: LockOwner, heartbeatAt: number, lockPath: string, now: number): CliError {
  const facts = [`pid ${owner.pid}`];
  if (owner.host) facts.push(`on ${owner.host}`);
  if (owner.started_at) facts.push(`started ${ago(now - owner.started_at)}`);
  facts.push(`last active ${ago(now - heartbeatAt)}`);
  return new CliError(`Another msgctl (${facts.join(', ')}) is sending this batch right now; nothing was sent.`, undefined, [
    `Wait for it to finish. A lock with no activity for ${STALE_AFTER_MS / 1000} s is taken over by the next run; to take it now, delete ${lockPath}.`,
  ], 'batch_locked');
}

/**
 * Takes the lock of the journal at `path`; the returned function releases it. The lock file
 * is created exclusively in the journal's checked folder, a planted one is refused, and a
 * stale one is taken over by exactly one of the runs that find it (config/file-lock.ts).
 */
export async function lockJournal(path: string, machine: () => Machine = thisMachine): Promise<() => Promise<void>> {
  const what = 'the journal lock';
  let lockPath = `${path}.lock`;
  try {
    lockPath = join(ensureOwnFolder(dirname(path), 'the journal folder'), basename(lockPath));
    for (let attempt = 0; ; attempt++) {
      const text = JSON.stringify(ownSelf(machine())) + '\n';
      if (createLockFile(lockPath, text, what)) return heartbeat(lockPath, text);
      if (attempt > 20) throw new CliError(`Cannot take the journal lock ${lockPath}: it keeps changing hands.`, undefined, [], 'batch_locked');
      const seen = readLockFile(lockPath, what);
      if (!seen) continue; // released in between: try again
      const now = machine();
      const owner = parseOwner(seen.text);
      // A lock being written right now reads empty: give its writer a moment rather than take it.
      if (!owner && now.now - seen.mtimeMs < 2_000) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      // Our own PID on this host is a leftover of an earlier process that had it: never a live owner.
      const ours = owner?.pid === process.pid && (owner.host === undefined || owner.host === now.host);
      if (owner && !ours) {
        const verdict = judgeLock(owner, seen.mtimeMs, now);
        if (!verdict.stale) throw heldError(owner, seen.mtimeMs, lockPath, now.now);
      }
      removeStaleLock(lockPath, seen, what);
      // Another run taking the same stale lock over: give it the moment it needs.
      if (attempt > 0) await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
    }
  } catch (err) {
    throw lockError(err, lockPath);
  }
}

/**
 * Renews the lock's modification time while the batch runs; the returned function releases it.
 * Until then the lock is a held file: removed at exit if the process ends before the release
 * (util/held-files.ts).
 */
function heartbeat(lockPath: string, text: string): () => Promise<void> {
  holdFile(lockPath, text);
  const timer = setInterval(() => {
    const now = new Date();
    utimes(lockPath, now, now).catch(() => {});
  }, HEARTBEAT_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await unlink(lockPath).catch(() => {});
    releaseFile(lockPath, text);
  };
}

function lockError(err: unknown, lockPath: string): Error {
  if (err instanceof CliError) return err;
  return new CliError(`Cannot lock the journal (${lockPath}): ${(err as Error).message}`);
}
