/**
 * `msgctl sandbox reply` and `msgctl sandbox faults add|list|clear` (issue 29,
 * item 11), against a real `msgctl sandbox` process of the built binary,
 * found through the "sandbox" profile it wrote (or --base-url): what they
 * print and exit with, and what the sandbox then holds and serves. What they
 * refuse before sending, and a sandbox that cannot be found, are checked against
 * an in-process sandbox (test/cli/sandbox-control.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { createInterface } from 'node:readline';
import { binPath, isolatedEnv } from '../helpers/cli.js';
// The sandbox is the built binary's, a process of its own; the commands that drive it run in this process.
import { jsonLines, msgctl } from '../helpers/in-process.js';

let child: ResultPromise;
let info: { base_url: string; origin: string; api_key: string };
let env: Record<string, string | undefined>;

beforeAll(async () => {
  env = isolatedEnv();
  child = execa(process.execPath, [binPath(), 'sandbox', '--port', '0', '--json', '--write-profile', '--rate-limit', '0'], { env, extendEnv: false, reject: false });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  info = JSON.parse(line);
});

afterAll(async () => {
  child.kill('SIGINT');
  await child;
});

const today = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

describe('msgctl sandbox reply', () => {
  it('stores the patient\'s text in the running sandbox, where `messages list` shows it from the patient', async () => {
    const r = await msgctl(['sandbox', 'reply', '--from', '(555) 555-0123', 'Running ten minutes late'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    // Piped: tab-separated label and value, the new message's id first.
    const id = r.stdout.split('\n')[0]!.split('\t')[1]!;
    expect(r.stdout).toContain('from\t+15555550123');
    expect(r.stdout).toContain('to\t+15555550100');

    const listed = await msgctl(['--profile', 'sandbox', 'messages', 'list', '--after', today(), '--json'], { env });
    expect(listed.exitCode, listed.stderr).toBe(0);
    const message = jsonLines(listed.stdout).find((m) => m.id === id);
    expect(message).toMatchObject({
      body: 'Running ten minutes late',
      channel: 'sms',
      delivery: null,
      sender: { kind: 'patient', name: 'Ada Lovelace' },
      phone_number: { number: '+15555550100' },
      unread: true,
    });
  });

  it('--json prints the sandbox\'s answer as one line; --to picks the clinic number, and STOP opts the phone out of it', async () => {
    const r = await msgctl(['sandbox', 'reply', '--from', '+15555550124', '--to', '(555) 555-0110', 'STOP', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([{ id: expect.any(String), from: '+15555550124', to: '+15555550110', body: 'STOP', created_at: expect.any(String) }]);
    const send = await msgctl(['--profile', 'sandbox', 'send', '--to', '+15555550124', '--from', '+15555550110', '--channel', 'sms', 'Recall due'], { env });
    expect(send.exitCode).toBe(6);
    expect(send.stderr).toMatch(/patient_opted_out/);
  });

  it('a clinic number no sandbox organization has is the sandbox\'s 404, exit 4', async () => {
    const r = await msgctl(['sandbox', 'reply', '--from', '+15555550123', '--to', '+15555550999', 'hello'], { env });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/not a clinic number/);
  });
});

describe('msgctl sandbox faults', () => {
  it('add queues a fault the next matching request is served, list shows it queued then served, clear empties the queue', async () => {
    const add = await msgctl(['sandbox', 'faults', 'add', '--status', '503', '--method', 'post', '--path', '/v1/patient-messages', '--json'], { env });
    expect(add.exitCode, add.stderr).toBe(0);
    expect(jsonLines(add.stdout)).toEqual([{ added: 1, queued: 1 }]);
    const queued = await msgctl(['sandbox', 'faults', 'list', '--json'], { env });
    expect(jsonLines(queued.stdout).filter((f) => f.state === 'queued')).toEqual([{ state: 'queued', status: 503, method: 'POST', path: '/patient-messages' }]);

    // Without retries the injected 503 is what the command meets.
    const send = await msgctl(['--profile', 'sandbox', '--retries', '0', 'send', '--to', '+15555550123', 'Your results are ready'], { env });
    expect(send.exitCode).toBe(8);
    expect(send.stderr).toMatch(/service_unavailable/);
    const requestId = /request id: ([0-9a-f-]{36})/.exec(send.stderr)?.[1];
    expect(requestId).toBeTruthy();

    const served = jsonLines((await msgctl(['sandbox', 'faults', 'list', '--json'], { env })).stdout);
    expect(served.filter((f) => f.state === 'queued')).toEqual([]);
    expect(served.filter((f) => f.state === 'served').at(-1)).toMatchObject({
      status: 503,
      request: { method: 'POST', path: '/patient-messages', request_id: requestId },
    });

    await msgctl(['sandbox', 'faults', 'add', '--reset', '--count', '3'], { env });
    const clear = await msgctl(['sandbox', 'faults', 'clear', '--json'], { env });
    expect(jsonLines(clear.stdout)).toEqual([{ cleared: 3 }]);
    const org = await msgctl(['--profile', 'sandbox', 'org', '--json'], { env });
    expect(org.exitCode).toBe(0);
  });

  it('a 429 fault carries the Retry-After given; the client waits it out and retries', async () => {
    await msgctl(['sandbox', 'faults', 'add', '--status', '429', '--retry-after', '1', '--path', '/organization'], { env });
    const org = await msgctl(['--profile', 'sandbox', '--verbose', 'org', '--json'], { env });
    expect(org.exitCode, org.stderr).toBe(0);
    expect(org.stderr).toMatch(/GET \/v1\/organization -> 429 .*retry 1\/4/);
    const served = jsonLines((await msgctl(['sandbox', 'faults', 'list', '--json'], { env })).stdout).filter((f) => f.state === 'served');
    expect(served.at(-1)).toMatchObject({ status: 429, retryAfter: 1, request: { method: 'GET', path: '/organization' } });
  });
});

describe('finding the sandbox', () => {
  it('takes --base-url (or MSGCTL_BASE_URL) instead of the profile', async () => {
    const bare = isolatedEnv();
    const r = await msgctl(['--base-url', info.base_url, 'sandbox', 'faults', 'list'], { env: bare });
    expect(r.exitCode, r.stderr).toBe(0);
    const viaEnv = await msgctl(['sandbox', 'reply', '--from', '+15555550123', 'via env'], { env: { ...bare, MSGCTL_BASE_URL: info.base_url } });
    expect(viaEnv.exitCode, viaEnv.stderr).toBe(0);
  });
});
