/**
 * Exactly-once sends under failures (product.md §2 "Retries", api-spec
 * §4.10): the CLI retries 503, 429 and lost connections with the same
 * Idempotency-Key, and the sandbox ends with one message however many
 * attempts it took.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, jsonLines } from '../helpers/in-process.js';

const sandbox = useSandbox();
const sb = () => sandbox.current.sb;
const ada = () => sb().db.patients.find((p) => p.phone === '+15555550123' && p.orgId === sandbox.current.credentials.organization_id)!;
const withBody = (body: string) => sb().db.messages.filter((m) => m.body === body);

/** Runs a send and returns the result with the POST attempts the sandbox saw for it. */
async function send(body: string, extra: string[] = []) {
  const from = sandbox.current.testing.requests().length;
  const started = Date.now();
  const r = await msgctl([...extra, 'send', '--to', ada().id, body, '--json'], { env: sandboxEnv(sandbox.current) });
  const attempts = sandbox.current.testing.requests().slice(from).filter((q) => q.method === 'POST' && q.path === '/patient-messages');
  return { ...r, attempts, elapsedMs: Date.now() - started };
}

describe('retries keep a send exactly-once', () => {
  it('retries 503s with the same Idempotency-Key: one message', async () => {
    sandbox.current.testing.injectFaults({ status: 503, method: 'POST' }, { status: 503, method: 'POST' });
    const r = await send('After two 503s');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.attempts.map((a) => a.fault)).toEqual(['status', 'status', null]);
    expect(new Set(r.attempts.map((a) => a.idempotencyKey)).size).toBe(1);
    expect(r.attempts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const [stored] = withBody('After two 503s');
    expect(withBody('After two 503s')).toHaveLength(1);
    expect(jsonLines(r.stdout)[0].message.id).toBe(stored!.id);
  });

  it('waits out a 429\'s Retry-After, then retries with the same key: one message', async () => {
    sandbox.current.testing.injectFaults({ status: 429, retryAfter: 1, method: 'POST' });
    const r = await send('After a 429');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.attempts.map((a) => a.fault)).toEqual(['status', null]);
    expect(r.attempts[0]!.idempotencyKey).toBe(r.attempts[1]!.idempotencyKey);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(1000);
    expect(withBody('After a 429')).toHaveLength(1);
  });

  it('replays after a connection reset that happened after the send was stored: one message', async () => {
    sandbox.current.testing.injectFaults({ reset: true, method: 'POST' });
    const r = await send('Answer lost');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.attempts.map((a) => a.fault)).toEqual(['reset', null]);
    expect(r.attempts[0]!.idempotencyKey).toBe(r.attempts[1]!.idempotencyKey);
    const stored = withBody('Answer lost');
    expect(stored).toHaveLength(1);
    // The second attempt got the first attempt's answer back.
    expect(jsonLines(r.stdout)[0].message.id).toBe(stored[0]!.id);
  });

  it('gives up with exit 8 when 503s outlast --retries, storing nothing', async () => {
    sandbox.current.testing.injectFaults(...[1, 2, 3].map(() => ({ status: 503 as const, method: 'POST' })));
    const r = await send('Never stored', ['--retries', '2']);
    expect(r.exitCode).toBe(8);
    expect(r.attempts).toHaveLength(3);
    expect(r.stderr).toMatch(/service_unavailable/);
    expect(withBody('Never stored')).toHaveLength(0);
  });

  it('when 503s outlast the retries, says so and names the key that makes a re-run safe; that re-run sends once', async () => {
    sandbox.current.testing.injectFaults(...[1, 2].map(() => ({ status: 503 as const, method: 'POST' })));
    const from = sandbox.current.testing.requests().length;
    const env = sandboxEnv(sandbox.current);
    const failed = await msgctl(['--retries', '1', 'send', '--to', ada().id, 'Re-run with its key'], { env });
    expect(failed.exitCode).toBe(8);
    const key = sandbox.current.testing.requests().slice(from).find((q) => q.method === 'POST')!.idempotencyKey!;
    expect(failed.stderr).toContain(`hint: msgctl tried 2 times (--retries 1). Run the same command with --idempotency-key ${key} (the key it sent): the service does it at most once.`);
    expect(failed.stderr.split(key).length - 1).toBe(1); // the key once, not once to read and once to copy
    for (let run = 0; run < 2; run++) {
      const again = await msgctl(['send', '--to', ada().id, 'Re-run with its key', '--idempotency-key', key], { env });
      expect(again.exitCode, again.stderr).toBe(0);
    }
    expect(withBody('Re-run with its key')).toHaveLength(1);
  });

  it('names the key only where the command can send it again: msgctl api as its -H header, and following that writes once', async () => {
    sandbox.current.testing.injectFaults(...[1, 2].map(() => ({ status: 503 as const, method: 'POST', path: '/patients' })));
    const env = sandboxEnv(sandbox.current);
    const from = sandbox.current.testing.requests().length;
    const args = ['api', 'POST', '/patients', '-f', 'first_name=Rerun', '-f', 'last_name=Header', '-f', 'phone=+15555557311'];
    const failed = await msgctl(['--retries', '1', ...args], { env });
    expect(failed.exitCode).toBe(8);
    const key = sandbox.current.testing.requests().slice(from).find((q) => q.method === 'POST')!.idempotencyKey!;
    expect(failed.stderr).toContain(`Run the same command with -H 'Idempotency-Key: ${key}' (the key it sent): the service does it at most once.`);
    const again = await msgctl([...args, '-H', `Idempotency-Key: ${key}`], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(sb().db.patients.filter((p) => p.last_name === 'Header')).toHaveLength(1);
  });

  it('says no key where a re-run cannot send the same one: recipients add (no --idempotency-key)', async () => {
    const env = sandboxEnv(sandbox.current);
    const created = await msgctl(['campaigns', 'create', '--name', 'Retried adds', '--body', 'Hi', '--channel', 'sms', '--json'], { env });
    const id = jsonLines(created.stdout)[0].id as string;
    sandbox.current.testing.injectFaults(...[1, 2].map(() => ({ status: 503 as const, method: 'POST' })));
    const failed = await msgctl(['--retries', '1', 'campaigns', 'recipients', 'add', id, '--patient', ada().id], { env });
    expect(failed.exitCode).toBe(8);
    expect(failed.stderr).toContain('hint: msgctl tried 2 times (--retries 1). Try again later.');
    expect(failed.stderr).not.toContain('--idempotency-key');
  });

  it('imports create, whose --idempotency-key seeds the keys it sends, never names a sent key as one to pass to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-retried-import-'));
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'first_name,last_name,phone\nImp,One,+15555557001\n');
    sandbox.current.testing.injectFaults(...[1, 2].map(() => ({ status: 503 as const, method: 'POST', path: '/patient-imports' })));
    const failed = await msgctl(['--retries', '1', 'imports', 'create', csv, '--idempotency-key', '6f1c2a4e-1d2b-4c3d-9e8f-0a1b2c3d4e5f'], { env: sandboxEnv(sandbox.current) });
    rmSync(dir, { recursive: true, force: true });
    expect(failed.exitCode).toBe(8);
    expect(failed.stderr).toContain('msgctl tried 2 times (--retries 1). Try again later.');
    expect(failed.stderr).not.toMatch(/Run the same command with --idempotency-key/);
  });

  it('an attempt that timed out while the service still works on it: the retries wait for it (409 in progress) and it is sent once, exit 0', async () => {
    sandbox.current.testing.injectFaults({ holdMs: 2500, method: 'POST', path: '/patient-messages' });
    const r = await send('Held, then replayed', ['--timeout', '1', '--retries', '6', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('an earlier attempt with this key is still in progress');
    expect(new Set(r.attempts.map((a) => a.idempotencyKey)).size).toBe(1);
    expect(withBody('Held, then replayed')).toHaveLength(1);
  });

  it('a write whose connection broke after it was sent names the key that makes a re-run safe; that re-run sends once', async () => {
    sandbox.current.testing.injectFaults(...[1, 2].map(() => ({ reset: true as const, method: 'POST', path: '/patient-messages' })));
    const from = sandbox.current.testing.requests().length;
    const env = sandboxEnv(sandbox.current);
    const failed = await msgctl(['--retries', '1', 'send', '--to', ada().id, 'Reset twice'], { env });
    expect(failed.exitCode).toBe(8);
    const key = sandbox.current.testing.requests().slice(from).find((q) => q.method === 'POST')!.idempotencyKey!;
    expect(failed.stderr).toContain(`The connection broke after the request was sent, so it may have been done all the same. Run the same command with --idempotency-key ${key} (the key it sent)`);
    const again = await msgctl(['send', '--to', ada().id, 'Reset twice', '--idempotency-key', key], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(withBody('Reset twice')).toHaveLength(1);
    // Nothing listening: nothing was sent, and no key is offered.
    const refused = await msgctl(['--retries', '0', 'send', '--to', ada().id, 'Never sent'], { env: { ...env, MSGCTL_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(refused.exitCode).toBe(8);
    expect(refused.stderr).not.toContain('--idempotency-key');
  });

  it('--verbose logs every attempt and retry reason, never the key or the body', async () => {
    const body = 'Confidential lab result 4711';
    sandbox.current.testing.injectFaults({ status: 503, method: 'POST' }, { status: 429, retryAfter: 1, method: 'POST' });
    const r = await send(body, ['--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('[verbose] POST /v1/patient-messages'));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/-> 503 .*request_id=[0-9a-f-]{36}.*server error, retry 1\/4/);
    expect(lines[1]).toMatch(/-> 429 .*rate limited, retry 2\/4 after 1000ms/);
    expect(lines[2]).toMatch(/-> 201 \(\d+ms\) request_id=[0-9a-f-]{36}/);
    const everything = r.stdout + r.stderr;
    expect(r.stderr).not.toContain(body);
    expect(everything).not.toContain(sandbox.current.credentials.api_key);
    expect(r.stderr).not.toMatch(/authorization|bearer/i);
    expect(withBody(body)).toHaveLength(1);
  });
});
