/**
 * Two real local users for the tests of docs/security.md promise 8: an attacker
 * (uid 65534, nobody) and a victim (uid 1234, its own HOME), each running real
 * processes through util-linux `setpriv`. Only root can switch users, so these
 * tests run as root (CI does) and skip, saying why, anywhere else.
 */
import { execa, type ResultPromise } from 'execa';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath } from './cli.js';

export const ATTACKER = 65534;
export const VICTIM = 1234;

/** Why the two-user tests cannot run here, or null when they can. */
export function whyNoTwoUsers(): string | null {
  if (process.platform !== 'linux') return 'needs Linux and setpriv';
  if (process.getuid?.() !== 0) return 'needs root to run processes as two other users (CI runs as root)';
  const probe = spawnSync('setpriv', asArgs(ATTACKER, [process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(binPath())})`]));
  if (probe.error) return 'needs util-linux setpriv';
  if (probe.status !== 0) return `another user cannot run ${process.execPath} or read ${binPath()}`;
  return null;
}

function asArgs(uid: number, command: string[]): string[] {
  return ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', ...command];
}

/** Runs `command` as `uid`, with exactly `env`. */
export function runAs(uid: number, command: string[], env: Record<string, string | undefined>, options: { input?: string; timeout?: number } = {}): ResultPromise {
  return execa('setpriv', asArgs(uid, command), {
    env: env as NodeJS.ProcessEnv,
    extendEnv: false,
    reject: false,
    input: options.input ?? '',
    timeout: options.timeout ?? 60_000,
    stripFinalNewline: false,
  }) as ResultPromise;
}

/** `msgctl …` run by `uid`. */
export function msgctlAs(uid: number, args: string[], env: Record<string, string | undefined>, options: { input?: string; timeout?: number } = {}) {
  return runAs(uid, [process.execPath, binPath(), ...args], env, options);
}

export interface Stage {
  /** A root-owned folder (0755) holding the rest. */
  base: string;
  /** The victim's home, 0700, theirs. */
  home: string;
  /** A shared sticky folder, like /tmp (root's, 1777). */
  sticky: string;
  /** A shared folder anyone can write to, not sticky (0777): a misconfigured team folder. */
  open: string;
  /** The victim's environment: its HOME and XDG folders there, no keychain. */
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
}

export function stage(): Stage {
  const base = mkdtempSync(join(tmpdir(), 'msgctl-users-'));
  chmodSync(base, 0o755);
  const home = join(base, 'victim');
  mkdirSync(home, { mode: 0o700 });
  chownSync(home, VICTIM, VICTIM);
  const sticky = join(base, 'sticky');
  mkdirSync(sticky);
  chmodSync(sticky, 0o1777);
  const open = join(base, 'open');
  mkdirSync(open);
  chmodSync(open, 0o777);
  return {
    base,
    home,
    sticky,
    open,
    env: (extra = {}) => ({
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      XDG_CACHE_HOME: join(home, '.cache'),
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      MSGCTL_KEYCHAIN_SERVICE: 'msgctl-test',
      NO_COLOR: '1',
      ...extra,
    }),
  };
}
