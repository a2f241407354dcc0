/**
 * Tables fit a real terminal: the built binary runs under a pseudo-terminal
 * (`script`) whose width is set with `stty cols`, so the width is the one the
 * kernel reports to the process, not a test double's. The in-process tests
 * (test/cli/table-width.test.ts) cover every list; this proves the real
 * process reads the window it is in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { binPath, msgctl, sandboxEnv } from '../helpers/cli.js';
import { msgctl as inThisProcess } from '../helpers/in-process.js';

const haveScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return process.platform === 'linux';
  } catch {
    return false;
  }
})();

const sandbox = useSandbox();

beforeAll(async () => {
  const env = sandboxEnv(sandbox.current);
  // Set-up only: the message is sent in this process.
  const r = await inThisProcess(['send', '--to', '+15555550123', 'A long enough message body to need shrinking on a narrow terminal window, surely.'], { env });
  expect(r.exitCode, r.stderr).toBe(0);
});

/** Runs the binary on a pseudo-terminal `cols` wide; returns what it printed, escapes removed. (Async: the sandbox runs in this process.) */
async function onTerminal(cols: number, args: string[], extraEnv: Record<string, string | undefined> = {}): Promise<string> {
  return (await onTerminalRaw(cols, args, extraEnv)).out.replace(/\x1b\[[0-9;?]*[a-zA-Z=>]/g, '').replace(/\x1b[=>]/g, '').replace(/\r/g, '');
}

/** The same, as the terminal got it (escapes and all), with the exit code. */
async function onTerminalRaw(cols: number, args: string[], extraEnv: Record<string, string | undefined> = {}): Promise<{ out: string; code: number }> {
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const env = { ...sandboxEnv(sandbox.current), MSGCTL_BIN: binPath(), ...extraEnv };
  const r = await execa('script', ['-qec', `stty cols ${cols} rows 40; "${process.execPath}" "$MSGCTL_BIN" ${quoted}; echo "[exit $?]"`, '/dev/null'], { env, extendEnv: false, input: '', timeout: 20_000 });
  const code = Number(/\[exit (\d+)\]/.exec(r.stdout)?.[1] ?? -1);
  return { out: r.stdout.replace(/\[exit \d+\]\s*$/, ''), code };
}

const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

describe.skipIf(!haveScript)('tables on a real terminal', () => {
  it.each([80, 120])('messages list fits %i columns, with the id', async (cols) => {
    const out = await onTerminal(cols, ['messages', 'list', '--after', '2000-01-01']);
    expect(out).toMatch(/^TIME \(\S+\) +ID +/m);
    expect(widest(out), out).toBeLessThanOrEqual(cols);
  });

  it('patients list at 80 columns keeps whole ids and says what --wide adds', async () => {
    const out = await onTerminal(80, ['patients', 'list']);
    expect(widest(out), out).toBeLessThanOrEqual(80);
    expect(out).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}  /m);
    expect(out).toMatch(/hidden to fit the window; --wide shows all/);
  });
});

describe.skipIf(!haveScript)('the pager', () => {
  /** A pager that keeps what it is given in a file, as less would show it. */
  function recordingPager(): { command: string; seen: () => string } {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-pager-'));
    const script = join(dir, 'pager.sh');
    writeFileSync(script, `#!/bin/sh\ncat > "${join(dir, 'seen')}"\n`, { mode: 0o755 });
    return { command: script, seen: () => readFileSync(join(dir, 'seen'), 'utf8') };
  }

  it('long terminal output goes through MSGCTL_PAGER, whole', async () => {
    const pager = recordingPager();
    const r = await onTerminalRaw(100, ['patients', 'list', '--all'], { MSGCTL_PAGER: pager.command });
    expect(r.code).toBe(0);
    const piped = await msgctl(['patients', 'list', '--all'], { env: sandboxEnv(sandbox.current) });
    const rows = piped.stdout.split('\n').filter(Boolean).length;
    expect(rows).toBeGreaterThan(3);
    expect(pager.seen().split('\n').filter((l) => /^[0-9a-f]{8}-/.test(l))).toHaveLength(rows);
  });

  it('--no-pager, an empty MSGCTL_PAGER and a pipe print straight to the terminal', async () => {
    const pager = recordingPager();
    const r = await onTerminalRaw(100, ['patients', 'list', '--limit', '3', '--no-pager'], { MSGCTL_PAGER: pager.command });
    expect(r.out).toMatch(/^ID +NAME/m);
    expect(() => pager.seen()).toThrow();
    const empty = await onTerminalRaw(100, ['patients', 'list', '--limit', '3'], { MSGCTL_PAGER: '' });
    expect(empty.out).toMatch(/^ID +NAME/m);
  });

  it('a pager that is not installed: the output is complete, exit 0', async () => {
    const r = await onTerminal(100, ['patients', 'list', '--limit', '5'], { MSGCTL_PAGER: 'no-such-pager-here -R' });
    expect(r.split('\n').filter((l) => /^[0-9a-f]{8}-/.test(l))).toHaveLength(5);
  });

  it('a pager that exits early (the person quit): exit 0, no error', async () => {
    const r = await onTerminalRaw(100, ['patients', 'list', '--all'], { MSGCTL_PAGER: 'head -n 2' });
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/error|EPIPE/i);
  });

  it('the pager gets no credential from the environment (MSGCTL_API_KEY and the like)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-pager-'));
    const script = join(dir, 'pager.sh');
    writeFileSync(script, `#!/bin/sh\nenv > "${join(dir, 'env')}"\ncat > /dev/null\n`, { mode: 0o755 });
    const r = await onTerminalRaw(100, ['patients', 'list', '--all'], { MSGCTL_PAGER: script, MSGCTL_WEBHOOK_SECRET: 'whsec_test_pager', MSGCTL_CLIENT_SECRET: 'mcs_test_pager' });
    expect(r.code).toBe(0);
    const seen = readFileSync(join(dir, 'env'), 'utf8');
    expect(seen).toMatch(/^LESS=FRX$/m); // it ran, with the environment msgctl gives it
    expect(seen).not.toMatch(/MSGCTL_API_KEY|MSGCTL_WEBHOOK_SECRET|MSGCTL_CLIENT_SECRET|msk_test|whsec_test|mcs_test/);
  });

  it('PAGER is used when MSGCTL_PAGER is not set; less gets -FRX through LESS', async () => {
    const pager = recordingPager();
    const r = await onTerminalRaw(100, ['patients', 'list'], { PAGER: pager.command });
    expect(r.code).toBe(0);
    expect(pager.seen()).toMatch(/^ID +NAME/m);
  });
});

describe.skipIf(!haveScript)('TERM=dumb and NO_COLOR on a real terminal', () => {
  // NO_COLOR and CLICOLOR=0 are decided as TERM=dumb is, from the environment the command is given:
  // all three on a terminal's streams in process (test/cli/terminal.test.ts); here the real process
  // on a real terminal, with TERM=dumb and in colour.
  it('no colour and no cursor control from a table', async () => {
    for (const env of [{ TERM: 'dumb', NO_COLOR: undefined }]) {
      const r = await onTerminalRaw(100, ['patients', 'list', '--limit', '3', '--no-pager'], env);
      expect(r.out, JSON.stringify(env)).not.toMatch(/\x1b\[[0-9;?]*[a-zA-Z]/);
    }
    const coloured = await onTerminalRaw(100, ['patients', 'list', '--limit', '3', '--no-pager'], { TERM: 'xterm', NO_COLOR: undefined });
    expect(coloured.out).toMatch(/\x1b\[1m/);
  });
});
