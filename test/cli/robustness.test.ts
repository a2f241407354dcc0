/**
 * Edges a careful user hits: usage errors under --json, missing credentials,
 * empty filters, concurrent duplicates, Ctrl-C before sending, long
 * Retry-After, malformed URLs, idempotency across credentials of one org.
 */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';
// Ctrl-C needs a real process and its signal: that test spawns the built binary.
import { binPath, untilIdle } from '../helpers/cli.js';

const sandbox = useSandbox();
const sb = () => sandbox.current.sb;
const messageCount = () => sb().db.messages.size;

describe('usage and credential errors', () => {
  it('prints a usage error as one JSON problem line with --json', async () => {
    const r = await msgctl(['org', '--json', '--bogus'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(jsonLines(r.stderr)[0]).toMatchObject({ code: 'usage_error', detail: expect.stringMatching(/--bogus/) });
  });

  it('points at --help after a usage error without --json', async () => {
    const r = await msgctl(['send', '--channel', 'fax'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Allowed: secure, sms/);
    expect(r.stderr).toMatch(/msgctl send --help/);
  });

  it('refuses a profile name that is not a plain name with exit 2, storing nothing (issue 27)', async () => {
    const env = isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl });
    const key = sandbox.current.credentials.api_key;
    for (const name of ['__proto__', 'constructor', 'toString', '../x', 'a/b', 'a\\b', '.hidden', 'x'.repeat(65)]) {
      const r = await msgctl(['--profile', name, 'auth', 'set-key', '--insecure-storage'], { env, input: key });
      expect(r.exitCode, `${JSON.stringify(name)}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/invalid profile name/);
      expect(r.stderr).not.toMatch(/Stored/);
      const viaEnv = await msgctl(['org'], { env: { ...env, MSGCTL_PROFILE: name } });
      expect(viaEnv.exitCode, `MSGCTL_PROFILE=${JSON.stringify(name)}`).toBe(2);
    }
    // Plain names still work.
    const ok = await msgctl(['--profile', 'clinic-2.night_1', 'auth', 'set-key', '--insecure-storage'], { env, input: key });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect((await msgctl(['--profile', 'clinic-2.night_1', 'org'], { env })).exitCode).toBe(0);
  });

  it('exits 3 for auth status and auth token without a credential', async () => {
    const env = isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl });
    expect((await msgctl(['auth', 'status'], { env })).exitCode).toBe(3);
    expect((await msgctl(['auth', 'token'], { env })).exitCode).toBe(3);
  });

  it('prints the token as a JSON object with --json', async () => {
    const r = await msgctl(['auth', 'token', '--json'], { env: sandboxEnv(sandbox.current) });
    expect(jsonLines(r.stdout)).toEqual([{ token: sandbox.current.credentials.api_key }]);
  });

  it('rejects --timeout beyond a day and fractional --retries', async () => {
    expect((await msgctl(['org', '--timeout', '3000000'], { env: sandboxEnv(sandbox.current) })).exitCode).toBe(2);
    expect((await msgctl(['org', '--retries', '1.5'], { env: sandboxEnv(sandbox.current) })).exitCode).toBe(2);
  });
});

describe('verbose logging', () => {
  it('shows paging parameters but never query values that may be patient data', async () => {
    const r = await msgctl(['patients', 'list', '--phone', '(555) 555-0123', '--mrn', 'A-1001', '--verbose'], {
      env: sandboxEnv(sandbox.current),
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/GET \/v1\/patients\?.*page%5Blimit%5D=50/);
    expect(r.stderr).toMatch(/phone=…/);
    expect(r.stderr).not.toMatch(/5550123|A-1001/);
  });
});

describe('filters and bodies', () => {
  it('refuses an empty --mrn locally, and the sandbox refuses an empty filter', async () => {
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['patients', 'list', '--mrn', ''], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(sandbox.current.testing.requests().length).toBe(before);
    const res = await fetch(`${sandbox.current.baseUrl}/patients?phone=`, {
      headers: { authorization: `Bearer ${sandbox.current.credentials.api_key}` },
    });
    expect(res.status).toBe(422);
  });

  it('drops the trailing newline of --body-file like stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-body-'));
    const file = join(dir, 'body.txt');
    writeFileSync(file, 'a'.repeat(1600) + '\n');
    const r = await msgctl(['send', '--to', '+15555550123', '--body-file', file, '--dry-run'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout)[0].body.body).toHaveLength(1600);
  });
});

describe('interrupts and waits', () => {
  it('Ctrl-C while waiting for the body on stdin exits 130 and sends nothing', async () => {
    const before = messageCount();
    const child = execa(process.execPath, [binPath(), 'send', '--to', '+15555550124'], {
      env: sandboxEnv(sandbox.current),
      extendEnv: false,
      reject: false,
      stdin: 'pipe',
    });
    await untilIdle(child.pid!); // started, and waiting on the read
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    await new Promise((r) => setTimeout(r, 200));
    expect(messageCount()).toBe(before);
  });

  it('says when to retry after a Retry-After longer than it waits (exit 7)', async () => {
    sandbox.current.testing.injectFaults({ status: 429, retryAfter: 400, method: 'GET', path: '/organization' });
    const r = await msgctl(['org'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/retry after: 400 s/);
  });
});

describe('idempotency', () => {
  it('a concurrent duplicate waits for the first (409 in progress, retried) and gets its result, exit 0; with --retries 0 it is exit 5; sent once', async () => {
    const key = randomUUID();
    const before = messageCount();
    sandbox.current.testing.injectFaults({ holdMs: 1500, method: 'POST', path: '/patient-messages' });
    const args = ['send', '--to', '+15555550124', '--idempotency-key', key, '--json', 'Your appointment is confirmed'];
    const first = msgctl(args, { env: sandboxEnv(sandbox.current) });
    // The duplicates go once the sandbox has the first one (held), not after a fixed time.
    await expect.poll(() => sandbox.current.testing.requests().some((q) => q.idempotencyKey === key), { timeout: 10_000, interval: 10 }).toBe(true);
    const impatient = await msgctl(['--retries', '0', ...args], { env: sandboxEnv(sandbox.current) });
    expect(impatient.exitCode).toBe(5);
    expect(impatient.stderr).toMatch(/idempotency_request_in_progress/);
    const second = await msgctl(args, { env: sandboxEnv(sandbox.current) });
    const firstResult = await first;
    expect(firstResult.exitCode, firstResult.stderr).toBe(0);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(jsonLines(second.stdout)[0].message.id).toBe(jsonLines(firstResult.stdout)[0].message.id);
    expect(messageCount()).toBe(before + 1);
  });

  it('replays across two credentials of the same organization (keys belong to the org)', async () => {
    const key = randomUUID();
    const args = ['send', '--to', '+15555550124', '--idempotency-key', key, '--json', 'Same request, other key'];
    const a = await msgctl(args, { env: sandboxEnv(sandbox.current) });
    const b = await msgctl(args, { env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: sandbox.current.credentials.limited_api_key }) });
    expect(a.exitCode).toBe(0);
    expect(b.exitCode).toBe(0);
    expect(jsonLines(b.stdout)[0].message.id).toBe(jsonLines(a.stdout)[0].message.id);
  });
});

describe('sandbox protocol edges', () => {
  it('answers a malformed URL with a problem and a request id', async () => {
    const res = await fetch(`${sandbox.current.baseUrl}/patients/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const body = (await res.json()) as { code: string; request_id: string };
    expect(body.code).toBe('invalid_request');
    expect(res.headers.get('x-request-id')).toBe(body.request_id);
  });
});
