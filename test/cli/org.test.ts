import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, isolatedEnv, jsonLines } from '../helpers/in-process.js';

const sandbox = useSandbox();

describe('msgctl org', () => {
  it('prints the organization as one JSON line', async () => {
    const r = await msgctl(['org', '--json'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(0);
    const [org] = jsonLines(r.stdout);
    expect(org).toEqual({ id: sandbox.current.credentials.organization_id, name: 'Riverside Family Clinic' });
    expect(r.stderr).toBe('');
  });

  it('prints tab-separated fields when piped', async () => {
    const r = await msgctl(['org'], { env: sandboxEnv(sandbox.current) });
    expect(r.stdout).toBe(`id\t${sandbox.current.credentials.organization_id}\nname\tRiverside Family Clinic\n`);
  });

  it('exits 3 with invalid_token and the request id for a bad key', async () => {
    const r = await msgctl(['org'], { env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'msk_test_wrong' }) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/invalid_token/);
    expect(r.stderr).toMatch(/request id: [0-9a-f-]{36}/);
    expect(r.stdout).toBe('');
  });

  it('exits 3 when there is no credential at all', async () => {
    const r = await msgctl(['org'], { env: isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl }) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/No credential/);
  });

  it('refuses to send a key over plain http to a non-loopback host', async () => {
    const r = await msgctl(['org'], { env: sandboxEnv(sandbox.current, { MSGCTL_BASE_URL: 'http://example.com/v1' }) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Refusing to send a credential over plain http/);
  });

  it('prints the problem as one JSON line on stderr with --json', async () => {
    const r = await msgctl(['org', '--json'], { env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'nope' }) });
    expect(r.exitCode).toBe(3);
    const [problem] = jsonLines(r.stderr);
    expect(problem).toMatchObject({ status: 401, code: 'invalid_token', field_errors: [] });
    expect(problem.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
