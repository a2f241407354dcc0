/**
 * docs/security.md, promise 7: no write keeps SIGTERM or SIGINT from ending msgctl.
 * Its stdout is a pipe another process has already filled and nobody reads (issue 27's
 * reproduction: `( head -c 65536 /dev/zero; exec msgctl org --json ) | sleep 40`), or a
 * terminal on hold (Ctrl-S: output stopped with tcflow, on a real pseudo-terminal); the
 * signal must end the command, by the end of the grace period (5 s) at the latest.
 * Before, a blocking write held the main thread, so the handlers and the grace timer
 * never ran: the process stayed for as long as the reader did.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath, sandboxEnv, untilIdle } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'msgctl-stuck-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Notes its PID, then becomes msgctl (same PID).
const RUN = join(dir, 'run.sh');
writeFileSync(RUN, 'echo $$ > "$PIDFILE"\nexec "$NODE" "$BIN" "$@"\n');

/** The PID written to `file` by whoever started, once it is there. */
async function pidIn(file: string): Promise<number> {
  for (;;) {
    if (existsSync(file)) {
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid > 0) return pid;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return state.slice(state.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

/** Polls until `pid` is gone; false if it is still there after a generous bound (the grace period is 5 s). */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < ms; ) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

function kill(pid: number | undefined): void {
  try {
    if (pid) process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

describe.skipIf(process.platform !== 'linux')('signals with stdout that cannot take a byte', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`a pipe filled with 64 KiB that nobody reads: ${signal} ends msgctl`, async () => {
      const pidfile = join(dir, `pipe-${signal}.pid`);
      const readerfile = join(dir, `reader-${signal}.pid`);
      const env = sandboxEnv(sandbox.current, { PIDFILE: pidfile, NODE: process.execPath, BIN: binPath() });
      const shell = execa('sh', ['-c', `( head -c 65536 /dev/zero; exec sh ${RUN} org --json ) | sh -c 'echo $$ > ${readerfile}; exec sleep 600'`], {
        env: env as NodeJS.ProcessEnv,
        extendEnv: false,
        reject: false,
      });
      const pid = await pidIn(pidfile);
      try {
        await untilIdle(pid);
        process.kill(pid, signal);
        expect(await endsWithin(pid, 30_000)).toBe(true);
      } finally {
        kill(pid);
        kill(await pidIn(readerfile));
        await shell;
      }
    }, 60_000);
  }

  it('a terminal on hold (Ctrl-S): SIGTERM ends msgctl', async () => {
    const pidfile = join(dir, 'tty.pid');
    const env = sandboxEnv(sandbox.current, { PIDFILE: pidfile, NODE: process.execPath, BIN: binPath() });
    // Output stopped as Ctrl-S stops it (tcflow TCOOFF), then a table to print.
    const hold = `perl -MPOSIX -e 'POSIX::tcflow(1, POSIX::TCOOFF()) or die "tcflow: $!"'`;
    const terminal = execa('script', ['-qec', `${hold}; exec sh ${RUN} patients list`, '/dev/null'], {
      env: env as NodeJS.ProcessEnv,
      extendEnv: false,
      reject: false,
    });
    const pid = await pidIn(pidfile);
    try {
      await untilIdle(pid);
      process.kill(pid, 'SIGTERM');
      expect(await endsWithin(pid, 30_000)).toBe(true);
    } finally {
      kill(pid);
      kill(terminal.pid);
      await terminal;
    }
  }, 60_000);
});
