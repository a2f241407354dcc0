/**
 * The batch lock knows whose it is (pid + host + process start + boot time,
 * and a heartbeat in its mtime): judged as a pure function with a fake
 * machine, and for real against live processes that are not msgctl.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeLock, lockJournal, parseOwner, processStartedAt, STALE_AFTER_MS, type Machine } from '../../src/cli/batch/lock.js';

const NOW = Date.parse('2026-11-23T03:00:00Z');
const machine = (over: Partial<Machine> = {}): Machine => ({
  host: 'front-desk',
  bootAt: NOW - 3600_000,
  now: NOW,
  isAlive: () => true,
  startedAt: () => NOW - 600_000,
  ...over,
});
const owner = { pid: 324, host: 'front-desk', started_at: NOW - 600_000, boot_at: NOW - 3600_000 };

describe('judgeLock', () => {
  it.each([
    ['the live owner, heartbeat fresh', owner, NOW - 5_000, machine(), false],
    ['no heartbeat for longer than the limit (crash, hang)', owner, NOW - STALE_AFTER_MS - 1, machine(), true],
    ['the machine rebooted since', owner, NOW - 5_000, machine({ bootAt: NOW - 60_000 }), true],
    ['the process is gone', owner, NOW - 5_000, machine({ isAlive: () => false }), true],
    ['the PID now belongs to a process started at another time', owner, NOW - 5_000, machine({ startedAt: () => NOW - 30_000 }), true],
    ['start time unknown on this OS: the heartbeat decides', owner, NOW - 5_000, machine({ startedAt: () => undefined }), false],
    ['another host, fresh: it may be running there', { ...owner, host: 'back-office' }, NOW - 5_000, machine({ isAlive: () => false }), false],
    ['another host, no heartbeat', { ...owner, host: 'back-office' }, NOW - STALE_AFTER_MS - 1, machine(), true],
    ['0.1 lock (bare PID) of a process started after it was written', { pid: 324 }, NOW - 60_000, machine({ startedAt: () => NOW - 10_000 }), true],
    ['0.1 lock (bare PID) of a process older than it', { pid: 324 }, NOW - 60_000, machine(), false],
  ] as const)('%s → stale: %s', (_name, who, heartbeatAt, m, stale) => {
    expect(judgeLock(who, heartbeatAt, m).stale).toBe(stale);
  });

  it('reads both lock formats', () => {
    expect(parseOwner('324\n')).toEqual({ pid: 324 });
    expect(parseOwner(JSON.stringify(owner))).toEqual(owner);
    expect(parseOwner('')).toBeUndefined();
    expect(parseOwner('{"pid":"x"}')).toBeUndefined();
  });
});

describe('lockJournal against live processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'msgctl-lock-'));
  let unrelated: ChildProcess | undefined;
  afterEach(() => {
    unrelated?.kill();
    unrelated = undefined;
  });
  const startUnrelated = async () => {
    unrelated = spawn('sleep', ['30'], { stdio: 'ignore' });
    await new Promise((r) => unrelated!.once('spawn', r));
    return unrelated.pid!;
  };

  it.skipIf(process.platform !== 'linux')('takes over a lock naming a live PID that is not the owner (started later)', async () => {
    const path = join(dir, 'reused.journal');
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    const pid = await startUnrelated();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid, host: undefined, started_at: Date.now() - 3600_000 }));
    utimesSync(`${path}.lock`, new Date(), new Date());
    const release = await lockJournal(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    await release();

    // The 0.1 format, a bare PID, written before that process started.
    writeFileSync(`${path}.lock`, String(pid));
    utimesSync(`${path}.lock`, tenMinutesAgo, tenMinutesAgo);
    await (await lockJournal(path))();
  });

  it('takes over a lock whose heartbeat stopped, even when its PID is alive (any OS)', async () => {
    const path = join(dir, 'silent.journal');
    const pid = await startUnrelated();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid, host: 'front-desk', started_at: Date.now() }));
    const old = new Date(Date.now() - STALE_AFTER_MS - 10_000);
    utimesSync(`${path}.lock`, old, old);
    await (await lockJournal(path))();
  });

  it('refuses while the owner is alive and active, naming pid, host, age and last activity', async () => {
    const path = join(dir, 'held.journal');
    const started = processStartedAt(process.ppid) ?? Date.now() - 120_000;
    const { hostname } = await import('node:os');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.ppid, host: hostname(), started_at: started }));
    const err = await lockJournal(path).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(new RegExp(`Another msgctl \\(pid ${process.ppid}, on ${hostname()}, started \\d+ (s|min) ago, last active \\d s ago\\)`));
    expect((err as unknown as { hints: string[] }).hints.join('\n')).toContain(`${path}.lock`);
  });
});
