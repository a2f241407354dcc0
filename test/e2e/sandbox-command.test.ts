/**
 * `msgctl sandbox` as a user runs it: one JSON line with --json, a working
 * --write-profile, clean Ctrl-C (state kept across restarts with --data:
 * sandbox-data.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
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
      // A fault list as long as a 1 MB body holds is queued (in this process's stack, spreading it
      // into push() overflowed: a 500), then cleared.
      const origin = new URL(info.base_url).origin;
      const faults = JSON.stringify({ faults: Array.from({ length: 66_000 }, () => ({ reset: true })) });
      expect(faults.length).toBeLessThan(1024 * 1024);
      const queued = await fetch(`${origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: faults });
      const cleared = await fetch(`${origin}/_sandbox/faults`, { method: 'DELETE' });
      expect(queued.status).toBe(201);
      expect(((await cleared.json()) as { cleared: number }).cleared).toBe(66_000);
    } finally {
      child.kill('SIGINT');
    }
    const result = await child;
    expect(result.exitCode).toBe(0);
  });

  // Restarting on a --data file (the same world, credentials and all; no side files after a clean stop):
  // sandbox-data.test.ts, after a kill -9 as well.

  it('Ctrl-C while a million messages are seeded ends it at once (exit 130, nothing served, nothing of it in --data); a second sandbox on that file meanwhile is told so (exit 2)', async () => {
    const env = isolatedEnv();
    const data = join(mkdtempSync(join(tmpdir(), 'msgctl-seed-')), 'world.db');
    const child = execa(process.execPath, [binPath(), 'sandbox', '--port', '0', '--json', '--data', data, '--seed-messages', '1000000'], { env, extendEnv: false, reject: false });
    try {
      // Its seed has begun writing (the one transaction of holdCommits holds the file's write lock);
      // the whole seed takes most of a minute.
      for (const until = Date.now() + 20_000; !(existsSync(`${data}-wal`) && statSync(`${data}-wal`).size > 0); ) {
        if (Date.now() > until) throw new Error('the sandbox never began seeding');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // A second sandbox on the same new file: not 'database is locked' (exit 1), but what to do.
      const second = await msgctl(['sandbox', '--port', '0', '--data', data], { env });
      expect(second.exitCode, second.stderr).toBe(2);
      expect(second.stderr).toContain(`--data ${data} is being seeded by another msgctl sandbox right now`);
    } finally {
      child.kill('SIGINT');
      await child;
    }
    const r = await child;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stdout).toBe('');
    expect(JSON.parse(String(r.stderr).trim())).toMatchObject({ code: 'interrupted' });
    // The seed is one transaction: stopped, none of it is in the file, and the next start on it
    // seeds a whole world (committed turn by turn, it left 85,000 messages and 2 conversations).
    const again = await startSandboxProcess(['--data', data], env);
    try {
      const apiEnv = { ...env, MSGCTL_BASE_URL: again.info.base_url, MSGCTL_API_KEY: again.info.api_key };
      const messages = await msgctl(['messages', 'list', '--after', '2000-01-01', '--all', '--json'], { env: apiEnv });
      expect(messages.exitCode, messages.stderr).toBe(0);
      expect(messages.stdout).toBe('');
      expect(jsonLines((await msgctl(['patients', 'list', '--all', '--json'], { env: apiEnv })).stdout).length).toBeGreaterThan(0);
    } finally {
      again.child.kill('SIGINT');
      await again.child;
    }
  });

  // Refused before a world is served, so no process of their own needed: more than a million
  // --seed-messages (commander's refusal, test/cli/flag-parsing.test.ts) and a bad --chaos spec
  // (test/cli/sandbox-control.test.ts, in process). The binary's exit 2 for a usage error of
  // `msgctl sandbox` is the second sandbox's above.
});
