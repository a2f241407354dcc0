/**
 * Tables fit a real terminal: the built binary runs under a pseudo-terminal
 * (`script`) whose width is set with `stty cols`, so the width is the one the
 * kernel reports to the process, not a test double's. The in-process tests
 * (test/cli/table-width.test.ts) cover every list; this proves the real
 * process reads the window it is in.
 */
import { execFileSync } from 'node:child_process';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { binPath, msgctl, sandboxEnv } from '../helpers/cli.js';

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
  const r = await msgctl(['send', '--to', '+15555550123', 'A long enough message body to need shrinking on a narrow terminal window, surely.'], { env });
  expect(r.exitCode, r.stderr).toBe(0);
});

/** Runs the binary on a pseudo-terminal `cols` wide; returns what it printed, escapes removed. (Async: the sandbox runs in this process.) */
async function onTerminal(cols: number, args: string[]): Promise<string> {
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const env = { ...sandboxEnv(sandbox.current), MSGCTL_BIN: binPath() };
  const { stdout: out } = await execa('script', ['-qec', `stty cols ${cols} rows 40; "${process.execPath}" "$MSGCTL_BIN" ${quoted}`, '/dev/null'], { env, extendEnv: false, input: '', timeout: 20_000 });
  return out.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, '').replace(/\r/g, '');
}

const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

describe.skipIf(!haveScript)('tables on a real terminal', () => {
  it.each([80, 120])('messages list fits %i columns', async (cols) => {
    const out = await onTerminal(cols, ['messages', 'list', '--after', '2000-01-01']);
    expect(out).toMatch(/│ time +│ patient/);
    expect(widest(out), out).toBeLessThanOrEqual(cols);
  });

  it('patients list at 80 columns keeps whole ids and says what --wide adds', async () => {
    const out = await onTerminal(80, ['patients', 'list']);
    expect(widest(out), out).toBeLessThanOrEqual(80);
    expect(out).toMatch(/│ [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} │/);
    expect(out).toMatch(/hidden to fit the window; --wide shows all/);
  });
});
