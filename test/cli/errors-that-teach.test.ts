/**
 * Errors a newcomer meets first (issue 16): each says what is wrong in the
 * user's terms and what to do next.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('errors that teach', () => {
  it('a refused connection to a loopback base URL is named once and points at `msgctl sandbox`', async () => {
    const port = await closedPort();
    const env = isolatedEnv({ MSGCTL_API_KEY: 'msk_test_x', MSGCTL_BASE_URL: `http://127.0.0.1:${port}/v1` });
    const r = await msgctl(['org', '--retries', '0'], { env });
    expect(r.exitCode).toBe(8);
    expect(r.stderr.match(/ECONNREFUSED/g)).toHaveLength(1);
    expect(r.stderr).toContain(`Could not reach 127.0.0.1:${port}: connection refused (ECONNREFUSED)`);
    expect(r.stderr).toMatch(/Nothing is listening at http:\/\/127\.0\.0\.1:\d+\/v1\. If that is the sandbox, start it .*`msgctl sandbox`/);
    const json = await msgctl(['org', '--retries', '0', '--json'], { env });
    expect(jsonLines(json.stderr)[0]).toMatchObject({ code: 'network_error', hints: [expect.stringContaining('msgctl sandbox')] });
  });

  it('an unknown option with a value (`--api-key=msk_…`) is named without the value: it may be a secret', async () => {
    for (const args of [['org', '--api-key=msk_test_SECRETX'], ['login', '--client-secret=mcs_test_SECRETX'], ['org', '--json', '--token=tok_SECRETX'], ['org', "--client-secret=a'SECRETX'c"]]) {
      const r = await msgctl(args, { env: isolatedEnv() });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`unknown option '${args.at(-1)!.split('=')[0]}=…'`);
      expect(r.stderr).not.toContain('SECRETX');
      // With --json, the same problem shape as every other error (hints included).
      if (args.includes('--json')) expect(Object.keys(JSON.parse(r.stderr))).toEqual(['type', 'title', 'status', 'code', 'detail', 'hints', 'request_id', 'field_errors']);
    }
  });

  it('a key with a \\r after it (an env file with Windows line endings) or spaces around it works; a control character inside it is exit 3 saying so, not a network failure (exit 8)', async () => {
    const key = sandbox.current.credentials.api_key;
    for (const padded of [`${key}\r`, ` ${key}\t`, `${key}\r\n`]) {
      const r = await msgctl(['org', '--json'], { env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: padded }) });
      expect(r.exitCode, JSON.stringify(padded) + r.stderr).toBe(0);
    }
    const before = sandbox.current.testing.requests().length;
    const broken = `${key.slice(0, 12)}\u0007${key.slice(12)}`;
    const r = await msgctl(['org'], { env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: broken }) });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('The API key in MSGCTL_API_KEY has the character U+0007 at character 13, which no API key holds.');
    expect(r.stderr).toContain('Set MSGCTL_API_KEY again');
    expect(r.stderr).not.toContain(key.slice(12));
    // Counted in the key as given: after the whitespace that is dropped, and after one that is not (a no-break space).
    const afterSpace = await msgctl(['org'], { env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: ` \u00a0${key}` }) });
    expect(afterSpace.stderr).toContain('has the character U+00A0 at character 2,');
    expect(sandbox.current.testing.requests().length).toBe(before);
  });

  it('text given on the command line that was not UTF-8 (U+FFFD where a byte was) is refused, as the same text in a file is: nothing is sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-not-utf8-'));
    writeFileSync(join(dir, 'one.csv'), 'first_name,phone\nAda,555-555-0123\n');
    const before = sandbox.current.testing.requests().length;
    for (const [args, label] of [
      [['send', '--to', '+15555550123', 'caf\uFFFD at 3pm'], 'The message body holds U+FFFD'],
      [['send', '--csv', join(dir, 'one.csv'), '--template', 'Hi {first_name}, caf\uFFFD'], '--template holds U+FFFD'],
      [['campaigns', 'create', '--name', 'Flu', '--body', 'caf\uFFFD'], '--body holds U+FFFD'],
    ] as const) {
      const r = await msgctl([...args], { env: sandboxEnv(sandbox.current) });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(label);
      expect(r.stderr).toContain('the character that stood there is lost, and nothing was sent');
    }
    expect(sandbox.current.testing.requests().filter((q) => q.method !== 'GET').length).toBe(sandbox.current.testing.requests().slice(0, before).filter((q) => q.method !== 'GET').length);
  });

  it('a base URL without /v1 gets a hint on the 404', async () => {
    const env = sandboxEnv(sandbox.current, { MSGCTL_BASE_URL: sandbox.current.origin });
    const r = await msgctl(['org'], { env });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(`hint: the base URL ${sandbox.current.origin} does not end in /v1; API base URLs do (for example ${sandbox.current.origin}/v1).`);
    // With /v1, a real 404 gets no such hint.
    const missing = await msgctl(['patients', 'get', '3f0c2a4e-8b1d-4c2e-9f3a-1b2c3d4e5f60'], { env: sandboxEnv(sandbox.current) });
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).not.toMatch(/does not end in \/v1/);
  });

  it('--profile nosuch says "no such profile" and lists the profiles there are', async () => {
    const env = isolatedEnv();
    const dir = join(env.XDG_CONFIG_HOME!, 'msgctl');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { clinic: { base_url: 'https://api.example.com/v1' }, sandbox: { base_url: 'http://127.0.0.1:4010/v1' } } }));
    const r = await msgctl(['--profile', 'nosuch', 'org'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: no such profile "nosuch" \(from --profile\)\./);
    expect(r.stderr).toMatch(/Profiles in .*config\.json: "clinic", "sandbox"\./);
    expect(r.stderr).not.toMatch(/No credential/);
    const fromEnv = await msgctl(['org'], { env: { ...env, MSGCTL_PROFILE: 'typo' } });
    expect(fromEnv.stderr).toMatch(/no such profile "typo" \(from MSGCTL_PROFILE\)/);
    // The same when the environment holds the key and the URL: the profile's settings would not apply.
    const keyFromEnv = sandboxEnv(sandbox.current, { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME });
    const typoWithKey = await msgctl(['--profile', 'nosuch', 'org'], { env: keyFromEnv });
    expect(typoWithKey.exitCode).toBe(2);
    expect(typoWithKey.stderr).toMatch(/^error: no such profile "nosuch" \(from --profile\)\./);
    expect((await msgctl(['org'], { env: { ...keyFromEnv, MSGCTL_PROFILE: 'typo' } })).stderr).toMatch(/no such profile "typo" \(from MSGCTL_PROFILE\)/);
    expect((await msgctl(['--profile', 'clinic', 'org'], { env: keyFromEnv })).exitCode).toBe(0);
    // auth status says only that (no "credential: none" first, though the environment holds a key),
    // and doctor's fix is the profiles there are, not "set MSGCTL_API_KEY".
    const status = await msgctl(['--profile', 'nosuch', 'auth', 'status'], { env: keyFromEnv });
    expect(status.exitCode).toBe(2);
    expect(status.stdout).toBe('');
    const doctor = await msgctl(['--profile', 'nosuch', 'doctor', '--json'], { env: keyFromEnv });
    const credential = jsonLines(doctor.stdout).find((c) => c.check === 'credential');
    expect(credential).toMatchObject({ status: 'fail', detail: expect.stringContaining('no such profile "nosuch"') });
    expect(credential.fix).toMatch(/Profiles in .*config\.json: "clinic", "sandbox"\./);
    // A default_profile left naming a profile that is gone is not a typo on this command line:
    // with the credential in the environment the command runs, as before.
    const stale = sandboxEnv(sandbox.current, { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'msgctl-stale-')) });
    mkdirSync(join(stale.XDG_CONFIG_HOME!, 'msgctl'));
    writeFileSync(join(stale.XDG_CONFIG_HOME!, 'msgctl', 'config.json'), JSON.stringify({ default_profile: 'gone', profiles: {} }));
    expect((await msgctl(['org'], { env: stale })).exitCode).toBe(0);
    // Without any credential, auth status is still "not logged in" (exit 3), as scripts check it.
    expect((await msgctl(['--profile', 'nosuch', 'auth', 'status'], { env })).exitCode).toBe(3);
    // `profiles use NAME` names no flag it was not given.
    const use = await msgctl(['profiles', 'use', 'nosuch'], { env });
    expect(use.exitCode).toBe(2);
    expect(use.stderr).toMatch(/^error: no such profile "nosuch"\.\n/);
    // An existing profile without a credential is still "no credential" (exit 3).
    const existing = await msgctl(['--profile', 'clinic', 'org'], { env });
    expect(existing.exitCode).toBe(3);
    expect(existing.stderr).toMatch(/No credential for profile "clinic"/);
  });

  it('a Latin-1 CSV is not called "not a CSV file": it gets the save-as-UTF-8 hint, in every command that reads a CSV', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-latin1-'));
    const file = join(dir, 'roster.csv');
    writeFileSync(file, Buffer.from('First Name,Last Name,Mobile Phone\nJos\xe9,Garc\xeda,555-555-0123\n', 'latin1'));
    const env = sandboxEnv(sandbox.current);
    for (const args of [
      ['imports', 'create', file, '--dry-run'],
      ['send', '--csv', file, '--template', 'Hi {first_name}'],
    ]) {
      const r = await msgctl(args, { env });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(/not a CSV file/);
      expect(r.stderr).toContain(`${file} is not UTF-8 text (it was probably saved as Windows-1252/Latin-1`);
      expect(r.stderr).toMatch(/CSV UTF-8/);
      expect(r.stderr).toMatch(/iconv -f WINDOWS-1252 -t UTF-8/);
    }
  });
});
