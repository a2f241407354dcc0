/**
 * The built CLI ends promptly on SIGTERM and SIGHUP (terminal closed), even
 * while it waits on a read, and sends nothing. SIGBREAK exists only on Windows;
 * test/unit/signals.test.ts covers it with an injected emitter.
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, sandboxEnv, untilIdle } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const messageCount = () => sandbox.current.sb.db.messages.size;

describe.skipIf(process.platform === 'win32')('signals while waiting on stdin', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s ends `send` by its own handler (before the grace period), exit 143, nothing sent', async (signal) => {
    const before = messageCount();
    const child = execa(process.execPath, [binPath(), 'send', '--to', '+15555550124'], {
      env: sandboxEnv(sandbox.current),
      extendEnv: false,
      reject: false,
      stdin: 'pipe', // open and silent: a read that would wait forever
      timeout: 10_000,
    });
    await untilIdle(child.pid!); // started, and waiting on the read
    child.kill(signal);
    const result = await child;
    // Ended by its own handler: it exits with 143. The 5 s grace period ends a command by the
    // signal's default action instead (no exit code), so no clock is needed to tell them apart.
    expect(result.signal).toBeUndefined();
    expect(result.exitCode).toBe(143);
    expect(String(result.stderr)).toContain('Terminated.');
    expect(messageCount()).toBe(before);
  });

  it('SIGTERM ends `auth set-key` waiting for the key on stdin, and stores nothing', async () => {
    const env = sandboxEnv(sandbox.current, { MSGCTL_API_KEY: undefined });
    const child = execa(process.execPath, [binPath(), 'auth', 'set-key', '--insecure-storage'], {
      env,
      extendEnv: false,
      reject: false,
      stdin: 'pipe',
      timeout: 10_000,
    });
    await untilIdle(child.pid!); // started, and waiting on the read
    child.kill('SIGTERM');
    const result = await child;
    // Its own handler's exit 143, not the grace period's kill by the signal (see above).
    expect(result.signal).toBeUndefined();
    expect(result.exitCode).toBe(143);
    expect(existsSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'credentials.json'))).toBe(false);
  });
});
