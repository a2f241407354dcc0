/**
 * Issue 29 item 8: `auth status` names the credential's source also when the
 * service refuses it; hints never send the user to a command that cannot help
 * (with MSGCTL_API_KEY set, `auth set-key` changes nothing); "No credential"
 * lists the profiles that have one (the forgotten `sandbox` profile).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();

/** A config whose profile "clinic" keeps `secret` in the 0600 credentials file, plus a "sandbox" profile with a key. */
function storedKey(secret: string, extra: Record<string, string | undefined> = {}) {
  const env = isolatedEnv({ MSGCTL_PROFILE: 'clinic', ...extra });
  const dir = join(env.XDG_CONFIG_HOME!, 'msgctl');
  mkdirSync(dir, { recursive: true });
  const profile = { base_url: sandbox.current.baseUrl, credential: { kind: 'api_key', storage: 'file', name: 'nightly' } };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { clinic: profile, sandbox: profile } }));
  writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ clinic: JSON.stringify({ kind: 'api_key', api_key: secret }), sandbox: JSON.stringify({ kind: 'api_key', api_key: secret }) }), { mode: 0o600 });
  return env;
}

describe('auth status names the source, also when the credential is refused', () => {
  it('a bad MSGCTL_API_KEY: the source is printed, the error names the variable and says set-key would not help', async () => {
    const env = sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'msk_test_not_a_real_key' });
    const r = await msgctl(['auth', 'status'], { env });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/source\tenvironment \(MSGCTL_API_KEY\)/);
    expect(r.stderr).toContain('The API key in MSGCTL_API_KEY was refused (HTTP 401 invalid_token).');
    expect(r.stderr).toContain('would not change what is sent');
    expect(r.stderr).toContain('unset MSGCTL_API_KEY');
    expect(r.stderr).not.toMatch(/check the credential with `msgctl auth status`/);
    const json = await msgctl(['auth', 'status', '--json'], { env });
    expect(json.exitCode).toBe(3);
    expect(jsonLines(json.stdout)[0]).toMatchObject({ source: 'env:MSGCTL_API_KEY', credential: 'api_key', organization: null });
  });

  it('says when the variable overrides a credential the profile stores', async () => {
    const env = storedKey(sandbox.current.credentials.api_key, { MSGCTL_API_KEY: 'msk_test_not_a_real_key' });
    const r = await msgctl(['auth', 'status'], { env });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toContain('environment (MSGCTL_API_KEY; overrides the API key stored for this profile)');
  });

  it('a refused stored key: names where it is stored and suggests storing a new one', async () => {
    const r = await msgctl(['auth', 'status'], { env: storedKey('msk_test_revoked') });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/source\tfile \(--insecure-storage\)/);
    expect(r.stderr).toContain('The API key stored for profile "clinic" in the credentials file (--insecure-storage) was refused');
    expect(r.stderr).toContain('msgctl auth set-key');
  });

  it('a working key still shows who it belongs to', async () => {
    const r = await msgctl(['auth', 'status', '--json'], { env: storedKey(sandbox.current.credentials.api_key) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ source: 'file', key_name: 'nightly', organization: { id: sandbox.current.credentials.organization_id } });
  });
});

describe('hints of other commands fit where the credential came from', () => {
  it('a 401 with MSGCTL_API_KEY set points at the variable, not at auth set-key', async () => {
    const r = await msgctl(['org'], { env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'msk_test_nope' }) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/hint: the API key in MSGCTL_API_KEY was refused\. MSGCTL_API_KEY overrides the profile's stored credential/);
    expect(r.stderr).not.toMatch(/store a new API key with `msgctl auth set-key`/);
  });

  it('a 401 with MSGCTL_TOKEN names the token', async () => {
    const r = await msgctl(['org'], { env: isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl, MSGCTL_TOKEN: 'expired' }) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('the access token in MSGCTL_TOKEN was refused');
  });

  it('oauth_required with MSGCTL_API_KEY: login alone would not help while the key overrides it', async () => {
    const r = await msgctl(['me'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('unset it (`unset MSGCTL_API_KEY`) and run `msgctl login`');
  });
});

describe('"No credential" lists the profiles that have one', () => {
  it('with no profile selected, names the sandbox profile and how to use it', async () => {
    const env = storedKey(sandbox.current.credentials.api_key, { MSGCTL_PROFILE: undefined });
    for (const args of [['org'], ['auth', 'status']]) {
      const r = await msgctl(args, { env });
      expect(r.exitCode, args.join(' ')).toBe(3);
      expect(r.stderr).toMatch(/Profiles with a credential in .*config\.json: "clinic" \(API key, http:\/\/127\.0\.0\.1:\d+\/v1\), "sandbox" \(API key/);
      expect(r.stderr).toContain('--profile sandbox');
      expect(r.stderr).toContain('msgctl profiles use sandbox');
    }
  });
});
