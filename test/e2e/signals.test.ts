/**
 * The built CLI ends promptly on SIGTERM and SIGHUP (terminal closed), even
 * while it waits on a read, and sends nothing. SIGBREAK exists only on Windows;
 * test/unit/signals.test.ts covers it with an injected emitter.
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
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

describe.skipIf(process.platform === 'win32')('signals while a write is at the service', () => {
  it('SIGTERM with `send` in flight: exit 143, and the key to finish it without sending twice', async () => {
    // The request is held at the service (the sandbox processes it after the hold), so the
    // signal comes after it was sent and before its answer.
    sandbox.current.testing.injectFaults({ holdMs: 20_000, method: 'POST', path: '/patient-messages' });
    const posted = () => sandbox.current.testing.requests().filter((q) => q.method === 'POST' && q.path === '/patient-messages');
    const before = posted().length;
    const child = execa(process.execPath, [binPath(), 'send', '--to', '+15555550125', 'held at the service', '--json'], {
      env: sandboxEnv(sandbox.current),
      extendEnv: false,
      reject: false,
      timeout: 15_000,
    });
    for (let waited = 0; posted().length === before; waited += 20) {
      if (waited > 10_000) throw new Error('the send never reached the sandbox');
      await new Promise((r) => setTimeout(r, 20));
    }
    const key = posted().at(-1)!.idempotencyKey;
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(143);
    const problem = JSON.parse(String(result.stderr).trim().split('\n').at(-1)!) as { code: string; hints: string[] };
    expect(problem.code).toBe('interrupted');
    expect(problem.hints.join(' ')).toContain(`--idempotency-key ${key}`);
    // Before it was sent, a stop names no key (the read-from-stdin test above): here it does, and
    // the key is the one the service got.
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('SIGTERM while retrying a refused connection names no key: nothing reached a service', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const child = execa(process.execPath, [binPath(), 'send', '--to', '+15555550126', 'never sent', '--retries', '8'], {
      env: sandboxEnv(sandbox.current, { MSGCTL_BASE_URL: `http://127.0.0.1:${port}/v1` }),
      extendEnv: false,
      reject: false,
      timeout: 15_000,
    });
    await untilIdle(child.pid!); // between attempts, in a backoff
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(143);
    expect(String(result.stderr)).toContain('Terminated.');
    expect(String(result.stderr)).not.toMatch(/idempotency-key|may have been done/i);
  });
});
