/**
 * A stored credential msgctl cannot read (a session in credentials.json with a stray quote) is
 * reported as damaged, exit 3, and nothing is sent: it was once sent whole as a bearer key,
 * refresh token included, to the API and its logs. A bare key stored by hand still works, and
 * `msgctl logout` still removes the damaged entry.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, msgctl } from '../helpers/in-process.js';

const sandbox = useSandbox();
const REFRESH = 'mrt_test_must_never_leave_this_machine';

/** Profile "work" keeps `stored` (the text as written) in the 0600 credentials file. */
function storedText(kind: 'oauth' | 'api_key', stored: string) {
  const env = isolatedEnv({ MSGCTL_PROFILE: 'work' });
  const dir = join(env.XDG_CONFIG_HOME!, 'msgctl');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { work: { base_url: sandbox.current.baseUrl, client_id: 'cli_x', credential: { kind, storage: 'file' } } } }));
  writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ work: stored }), { mode: 0o600 });
  return { env, file: join(dir, 'credentials.json') };
}

describe('a damaged stored credential', () => {
  it('is refused as damaged, exit 3, and no request carries any of it', async () => {
    const damaged = `{"kind":"oauth","access_token":"mat_test_x","refresh_token":"${REFRESH}"","expires_at":"2099-01-01T00:00:00Z"}`;
    const { env } = storedText('oauth', damaged);
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['org'], { env });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('The credential stored for profile "work"');
    expect(r.stderr).toContain('is damaged');
    expect(r.stderr).toContain('msgctl --profile work login');
    expect(r.stderr + r.stdout).not.toContain(REFRESH);
    expect(sandbox.current.testing.requests().length).toBe(before);
    // doctor gives the same way out, not the advice for a keychain it cannot read.
    const doctor = await msgctl(['doctor'], { env });
    const line = doctor.stdout.split('\n').find((l) => l.split('\t')[1] === 'credential')!;
    expect(line).toMatch(/^fail\tcredential\t.*is damaged.*\tStore it again: msgctl --profile work auth set-key, or msgctl --profile work login\.$/);
    expect(doctor.stdout + doctor.stderr).not.toContain(REFRESH);
  });

  it('`logout` still removes it', async () => {
    const { env, file } = storedText('oauth', `{"kind":"oauth","refresh_token":"${REFRESH}`);
    const r = await msgctl(['logout'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).not.toContain(REFRESH);
    // Its only entry gone, the file goes too.
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').not.toContain(REFRESH);
  });

  it('a bare key stored by hand is still read as a key', async () => {
    const { env } = storedText('api_key', `${sandbox.current.credentials.api_key}\n`);
    const r = await msgctl(['org', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
  });
});
