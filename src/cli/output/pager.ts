/**
 * Long terminal output through a pager, as gh does: MSGCTL_PAGER, then PAGER,
 * then the profile's `pager`, then `less -FRX` where less is installed and
 * TERM names a terminal (it
 * quits at once when the text fits the screen, keeps colour, and leaves the
 * text on the terminal). An empty setting or `cat` means none, as does
 * --no-pager. Started at the first write, so a command that fails before
 * printing never opens one.
 *
 * Nothing is lost when the pager is not there: the command is looked up on
 * PATH first, and what was written before a failed start goes to the terminal
 * directly. When the person quits the pager early, the command stops at its
 * next write and ends with 0, as with `| head`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { OutStream } from './types.js';
import { withoutSecrets } from '../util/secret-env.js';

const DEFAULT = 'less -FRX';

/** The pager to start for `stdout`, or null when none is wanted or none is installed. */
export function pagerFor(stdout: OutStream, env: Record<string, string | undefined>, profilePager: string | undefined): PagerOutput | null {
  // less on a terminal it does not know (no TERM, or dumb) stops to ask for RETURN: no default pager there.
  const knownTerminal = env.TERM !== undefined && env.TERM !== '' && env.TERM !== 'dumb';
  const setting = env.MSGCTL_PAGER ?? env.PAGER ?? profilePager ?? (knownTerminal ? DEFAULT : '');
  const words = splitCommand(setting);
  if (words.length === 0 || words[0] === 'cat') return null;
  const file = findExecutable(words[0]!, env);
  if (!file) return null;
  // less without options of its own gets gh's: quit if one screen, raw colour, no screen clearing.
  // msgctl's secrets stay with msgctl: a pager has no use for them (secrets never leave msgctl but to the API).
  const pagerEnv = { ...withoutSecrets(env), LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
  return new PagerOutput(stdout, file, words.slice(1), pagerEnv);
}

/** Words of a command line, with "double" or 'single' quotes keeping spaces (a path like "C:\Program Files\…"). */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

function findExecutable(name: string, env: Record<string, string | undefined>): string | null {
  const exts = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  const candidates = isAbsolute(name) || name.includes('/') || name.includes('\\') ? [name] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name));
  for (const base of candidates) {
    for (const ext of exts) {
      try {
        const path = base + ext;
        if (!statSync(path).isFile()) continue;
        accessSync(path, constants.X_OK);
        return path;
      } catch {
        // not here
      }
    }
  }
  return null;
}

export class PagerOutput implements OutStream {
  readonly isTTY = true;
  readerGone = false;
  private child: ChildProcess | null = null;
  private started = false;
  private failed = false;
  /** What was written before the pager was known to be running: replayed to the terminal if it never does. */
  private early: (string | Uint8Array)[] | null = [];
  private exited: Promise<void> = Promise.resolve();

  constructor(
    private readonly terminal: OutStream,
    private readonly file: string,
    private readonly args: string[],
    private readonly env: Record<string, string | undefined>,
  ) {}

  get columns(): number | undefined {
    return this.terminal.columns;
  }

  write(chunk: string | Uint8Array, callback?: (err?: Error | null) => void): boolean {
    if (this.failed) return this.terminal.write(chunk, callback);
    if (this.readerGone) {
      callback?.(null);
      return true;
    }
    if (!this.started) this.start();
    if (this.early) this.early.push(chunk);
    return this.child!.stdin!.write(chunk, (err) => callback?.(err && isClosed(err) ? null : err));
  }

  once(event: 'drain', listener: () => void): this {
    if (this.failed || !this.child?.stdin) this.terminal.once(event, listener);
    else {
      // A pager that quits while we wait for room will never drain: the exit releases the wait.
      const done = () => {
        this.child?.stdin?.off('drain', done);
        this.child?.off('exit', done);
        listener();
      };
      this.child.stdin.once('drain', done);
      this.child.once('exit', done);
    }
    return this;
  }

  private start(): void {
    this.started = true;
    const child = spawn(this.file, this.args, { stdio: ['pipe', 'inherit', 'inherit'], env: this.env as NodeJS.ProcessEnv });
    this.child = child;
    child.stdin!.on('error', (err) => {
      if (isClosed(err)) this.readerGone = true;
    });
    child.once('spawn', () => {
      this.early = null;
    });
    this.exited = new Promise<void>((resolve) => {
      child.once('error', () => {
        // Could not start after all: everything goes to the terminal, nothing lost.
        this.failed = true;
        for (const chunk of this.early ?? []) this.terminal.write(chunk);
        this.early = [];
        resolve();
      });
      child.once('exit', () => {
        this.readerGone = true;
        resolve();
      });
    });
  }

  /** Ends the pager's input and waits until the person has quit it. */
  async close(): Promise<void> {
    if (!this.child) return;
    this.child.stdin?.end();
    await this.exited;
  }
}

function isClosed(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET';
}
