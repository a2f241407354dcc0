/**
 * `msgctl sandbox` as a user runs it: one JSON line with --json, a working
 * --write-profile, state kept across restarts with --data, clean Ctrl-C.
 */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath, isolatedEnv, jsonLines, msgctl } from '../helpers/cli.js';

async function startSandboxProcess(args: string[], env: Record<string, string | undefined>) {
  const child = execa(process.execPath, [binPath(), 'sandbox', '--port', '0', '--json', ...args], {
    env,
    extendEnv: false,
    reject: false,
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  return { child, info: JSON.parse(line) };
}

describe('msgctl sandbox', () => {
  it('prints its URL and credentials as one JSON line and writes a working profile', async () => {
    const env = isolatedEnv();
    const { child, info } = await startSandboxProcess(['--write-profile'], env);
    try {
      expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(info.api_key).toMatch(/^msk_test_/);
      expect(info.oauth_client_id).toBeTruthy();
      const org = await msgctl(['--profile', 'sandbox', 'org', '--json'], { env });
      expect(org.exitCode).toBe(0);
      expect(jsonLines(org.stdout)[0].name).toBe('Riverside Family Clinic');
    } finally {
      child.kill('SIGINT');
    }
    const result = await child;
    expect(result.exitCode).toBe(0);
  });

  it('keeps state across restarts with --data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-data-'));
    const data = join(dir, 'sandbox.db');
    const env = isolatedEnv();
    const first = await startSandboxProcess(['--data', data], env);
    const apiEnv = { ...env, MSGCTL_BASE_URL: first.info.base_url, MSGCTL_API_KEY: first.info.api_key };
    const created = await msgctl(
      ['patients', 'create', '--first-name', 'Persisted', '--last-name', 'Patient', '--phone', '(555) 555-0177', '--json'],
      { env: apiEnv },
    );
    expect(created.exitCode).toBe(0);
    const id = jsonLines(created.stdout)[0].id;
    first.child.kill('SIGINT');
    expect((await first.child).exitCode).toBe(0);
    expect(existsSync(data)).toBe(true);
    // A SQLite database (readable with the sqlite3 shell), and nothing left beside it after a clean stop.
    expect(readFileSync(data).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
    expect(readdirSync(dir)).toEqual(['sandbox.db']);

    const second = await startSandboxProcess(['--data', data], env);
    try {
      expect(second.info.api_key).toBe(first.info.api_key);
      const got = await msgctl(['patients', 'get', id, '--json'], {
        env: { ...env, MSGCTL_BASE_URL: second.info.base_url, MSGCTL_API_KEY: second.info.api_key },
      });
      expect(got.exitCode).toBe(0);
      expect(jsonLines(got.stdout)[0]).toMatchObject({ id, first_name: 'Persisted', phone: '+15555550177' });
    } finally {
      second.child.kill('SIGINT');
      await second.child;
    }
  });

  it('rejects a bad --chaos spec with a usage error', async () => {
    const r = await msgctl(['sandbox', '--port', '0', '--chaos', 'teapot=0.5'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/chaos/);
  });
});
