/**
 * `msgctl sandbox reply` and `sandbox faults` in process, against an
 * in-process sandbox reached by --base-url: what they refuse before sending
 * anything (exit 2, the sandbox's state unchanged) and how they find, or fail
 * to find, a sandbox. The built binary against a real sandbox process, with
 * the "sandbox" profile, is test/e2e/sandbox-control.test.ts. And `msgctl
 * sandbox` itself refusing a bad --chaos spec (the sandbox as a process of
 * its own: test/e2e/sandbox-command.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, msgctl } from '../helpers/in-process.js';

const sandbox = useSandbox();
const env = () => isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl });
const messageCount = () => sandbox.current.sb.db.messages.count('1', []);

describe('msgctl sandbox (starting one)', () => {
  // The spec is read once the world is seeded, so in a process of its own this cost a whole start;
  // the binary's usage errors from `msgctl sandbox` (exit 2) stay in test/e2e/sandbox-command.test.ts.
  it('rejects a bad --chaos spec with a usage error', async () => {
    // A spec accepted by mistake would start a sandbox that serves until stopped: the command is
    // interrupted after 5 s (a usage error comes at once), so the test fails on the exit code then.
    const r = await msgctl(['sandbox', '--port', '0', '--chaos', 'teapot=0.5'], { env: isolatedEnv(), timeout: 5_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/chaos/);
  });
});

describe('msgctl sandbox reply refuses before sending', () => {
  it.each([
    [['--from', '12', 'hello'], /--from "12" is not a usable phone number/],
    [['--from', '+15555550123', '--to', 'front desk', 'hello'], /--to "front desk" is not a usable phone number/],
    [['--from', '+15555550123', '   '], /The reply is empty/],
    [['--from', '+15555550123', '--port', '4011', 'hello'], /--port is an option of `msgctl sandbox`/],
    [['hello'], /required option '--from <phone>'/],
  ])('%j', async (args, message) => {
    const before = messageCount();
    const r = await msgctl(['sandbox', 'reply', ...args], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(messageCount()).toBe(before);
  });

  it('reads a national number with --region', async () => {
    const r = await msgctl(['sandbox', 'reply', '--from', '020 7946 0018', '--region', 'GB', 'Hello from London', '--json'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ from: '+442079460018', to: '+15555550100' });
  });
});

describe('msgctl sandbox reply says where to read the reply', () => {
  it('names a command that shows the reply, and with an API key that command works as written', async () => {
    const r = await msgctl(['sandbox', 'reply', '--from', '+15555550123', 'Reply the hint finds'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const named = /read it with `msgctl ([^`]+)`/.exec(r.stderr)?.[1];
    expect(named).toBe('messages list --after 1h');
    const listed = await msgctl([...named!.split(' '), '--json'], { env: { ...env(), MSGCTL_API_KEY: sandbox.current.credentials.api_key } });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Reply the hint finds');
  });
});

describe('msgctl sandbox faults add refuses flags that describe no fault or two', () => {
  it.each([
    [[], /exactly one of --status, --reset or --hold/],
    [['--status', '503', '--reset'], /exactly one/],
    [['--reset', '--retry-after', '2'], /--retry-after goes with --status 429/],
    [['--status', '503', '--retry-after', '2'], /--retry-after goes with --status 429/],
    [['--hold', '100000'], /--hold must be a whole number of milliseconds up to 60000/],
    [['--status', '404'], /Allowed: 429, 500, 503/],
    [['--status', '503', '--path', 'patients'], /--path must start with \//],
    [['--status', '503', '--method', 'PO ST'], /--method must be an HTTP method/],
    [['--reset', '--data', 'x.db'], /--data is an option of `msgctl sandbox`/],
  ])('%j', async (args, message) => {
    const r = await msgctl(['sandbox', 'faults', 'add', ...args], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await fetch(`${sandbox.current.origin}/_sandbox/faults`).then((res) => res.json()) as { queued: unknown[] }).queued).toEqual([]);
  });
});

describe('sandbox faults list', () => {
  it('has what every list has: --wide (which its "hidden to fit" note names), --jq, --template and --json FIELDS', async () => {
    await fetch(`${sandbox.current.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [{ status: 503, path: '/organization' }, { reset: true }] }) });
    try {
      // The 503 served (to this request), the reset still queued: a served fault fills the request columns.
      const served = await fetch(`${sandbox.current.baseUrl}/organization`, { headers: { authorization: `Bearer ${sandbox.current.credentials.api_key}` } });
      expect(served.status).toBe(503);
      const narrow = await msgctl(['sandbox', 'faults', 'list'], { env: env(), tty: true, columns: 60 });
      expect(narrow.exitCode, narrow.stderr).toBe(0);
      expect(narrow.stderr).toMatch(/hidden to fit the window; --wide shows all/);
      const wide = await msgctl(['sandbox', 'faults', 'list', '--wide'], { env: env(), tty: true, columns: 60 });
      expect(wide.exitCode, wide.stderr).toBe(0);
      expect(wide.stdout).toMatch(/SERVED_TO|served_to/i);
      const jq = await msgctl(['sandbox', 'faults', 'list', '--jq', '.state + " " + (.status // "reset" | tostring)'], { env: env() });
      expect(jq.stdout).toBe('queued reset\nserved 503\n');
      const template = await msgctl(['sandbox', 'faults', 'list', '--template', '{{state}}:{{path}}'], { env: env() });
      expect(template.stdout).toBe('queued:\nserved:/organization\n');
      const fields = await msgctl(['sandbox', 'faults', 'list', '--json', 'state,path'], { env: env() });
      expect(fields.stdout).toBe('{"state":"queued"}\n{"state":"served","path":"/organization"}\n');
    } finally {
      await fetch(`${sandbox.current.origin}/_sandbox/faults`, { method: 'DELETE' });
    }
  });
});

describe('finding the sandbox', () => {
  it('without a base URL or a sandbox profile, says how to start one (exit 2)', async () => {
    const r = await msgctl(['sandbox', 'faults', 'list'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/No running sandbox found/);
    expect(r.stderr).toMatch(/msgctl sandbox --write-profile/);
  });

  it('a chosen profile without a base URL is named', async () => {
    const r = await msgctl(['--profile', 'work', 'sandbox', 'faults', 'list'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Profile "work" has no base URL/);
  });

  it.each(['https://api.example.com/v1', 'http://10.0.0.5:4010/v1', 'https://127.0.0.1:4010/v1'])('never talks to %s: only a sandbox on this machine (exit 2)', async (url) => {
    const r = await msgctl(['--base-url', url, 'sandbox', 'reply', '--from', '+15555550123', 'hi'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/not a sandbox on this machine/);
  });

  it('a sandbox that is not running: exit 8 with how to start one, at once (no retries)', async () => {
    const port = await freePort();
    const r = await msgctl(['--base-url', `http://127.0.0.1:${port}/v1`, 'sandbox', 'faults', 'list'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/No sandbox answers at http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stderr).toMatch(/msgctl sandbox --write-profile/);
  });

  it('sends no credential to the control endpoints, even with one in the environment', async () => {
    const seen: (string | undefined)[] = [];
    const capture = createHttpServer((req, res) => {
      seen.push(req.headers.authorization);
      res.setHeader('content-type', 'application/json');
      res.end('{"queued":[],"served":[]}');
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = capture.address() as { port: number };
      const r = await msgctl(['sandbox', 'faults', 'list'], { env: isolatedEnv({ MSGCTL_BASE_URL: `http://127.0.0.1:${port}/v1`, MSGCTL_API_KEY: 'msk_test_secret' }) });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(seen).toEqual([undefined]);
    } finally {
      capture.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
