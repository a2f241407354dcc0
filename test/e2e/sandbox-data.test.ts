/**
 * `msgctl sandbox --data FILE` on SQLite: a write answered 2xx survives
 * kill -9, nothing is half-written, no side files are left once it stops
 * cleanly again, an old JSON snapshot is refused, not overwritten, and every
 * file of it is the user's alone (0600) whatever the umask (issue 27, item 7).
 */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { createInterface } from 'node:readline';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath, isolatedEnv, msgctl } from '../helpers/cli.js';

async function startSandboxProcess(args: string[], env: Record<string, string | undefined>, umask?: string) {
  const argv = [binPath(), 'sandbox', '--port', '0', '--json', ...args];
  const child = umask === undefined
    ? execa(process.execPath, argv, { env, extendEnv: false, reject: false })
    : execa('sh', ['-c', `umask ${umask} && exec "$@"`, 'sh', process.execPath, ...argv], { env, extendEnv: false, reject: false });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  return { child, info: JSON.parse(line) as { base_url: string; api_key: string } };
}

describe('msgctl sandbox --data', () => {
  it('keeps every write answered 2xx across kill -9 during a stream of writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-kill-'));
    const data = join(dir, 'sandbox.db');
    const env = isolatedEnv();
    const first = await startSandboxProcess(['--data', data], env);
    const confirmed: { id: string; body: string }[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const body = `kill test ${w}-${i}`;
        try {
          const res = await fetch(`${first.info.base_url}/patient-messages`, {
            method: 'POST',
            headers: { authorization: `Bearer ${first.info.api_key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ to: { phone: `+1212555${String(1000 + w * 100 + (i % 100)).padStart(4, '0')}` }, body }),
          });
          if (res.status === 201) confirmed.push({ id: ((await res.json()) as { message: { id: string } }).message.id, body });
          else await res.arrayBuffer();
        } catch {
          return; // the sandbox is gone
        }
      }
    };
    let ended = 0;
    const writers = [0, 1, 2, 3].map((w) => writer(w).finally(() => ended++));
    // Until 40 writes are confirmed; should every writer end first (the sandbox died), at once, not at the test's timeout.
    while (confirmed.length < 40) {
      expect(ended, `the writers ended after ${confirmed.length} confirmed writes`).toBeLessThan(4);
      await new Promise((r) => setTimeout(r, 5));
    }
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await first.child;

    const second = await startSandboxProcess(['--data', data], env);
    try {
      // The same world: its credentials too.
      expect(second.info.api_key).toBe(first.info.api_key);
      for (const { id, body } of confirmed) {
        const res = await fetch(`${second.info.base_url}/patient-messages/${id}`, { headers: { authorization: `Bearer ${second.info.api_key}` } });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { body: string }).body).toBe(body);
      }
    } finally {
      second.child.kill('SIGINT');
    }
    expect((await second.child).exitCode).toBe(0);
    // A SQLite database (readable with the sqlite3 shell), and nothing left beside it after a clean stop.
    expect(readFileSync(data).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
    expect(readdirSync(dir)).toEqual(['sandbox.db']);
  });

  it('refuses an old JSON snapshot with a clear message and leaves it as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-old-'));
    const data = join(dir, 'sandbox.json');
    const old = JSON.stringify({ version: 1, seq: 0, tables: {} });
    writeFileSync(data, old);
    const r = await msgctl(['sandbox', '--port', '0', '--data', data], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/JSON snapshot from an older msgctl sandbox/);
    expect(r.stderr).toMatch(/new --data file/);
    expect(readFileSync(data, 'utf8')).toBe(old);
  });

  // A second sandbox started on a new --data file while the first still seeds it: sandbox-command.test.ts,
  // with the same seeding process its Ctrl-C test stops.

  it('says so when the --data directory does not exist', async () => {
    const r = await msgctl(['sandbox', '--port', '0', '--data', join(tmpdir(), `no-such-dir-${randomUUID()}`, 'x.db')], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Cannot open --data .*directory must exist/);
  });

  it.skipIf(process.platform === 'win32')('makes the database, its WAL and shared memory 0600 under umask 000, and tightens files an older run left open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-mode-'));
    const data = join(dir, 'sandbox.db');
    const env = isolatedEnv();
    const modes = () => Object.fromEntries(readdirSync(dir).map((f) => [f, (statSync(join(dir, f)).mode & 0o777).toString(8)]));
    const write = async (info: { base_url: string; api_key: string }) => {
      const res = await fetch(`${info.base_url}/patients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${info.api_key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ first_name: 'Private', last_name: 'File', phone: '+15555550170' }),
      });
      expect(res.status).toBeLessThan(300);
    };

    const first = await startSandboxProcess(['--data', data], env, '000');
    await write(first.info);
    expect(modes()).toEqual({ 'sandbox.db': '600', 'sandbox.db-wal': '600', 'sandbox.db-shm': '600' });
    first.child.kill('SIGKILL');
    await first.child;

    // As an older msgctl left them: readable by everyone.
    for (const f of readdirSync(dir)) chmodSync(join(dir, f), 0o644);
    const second = await startSandboxProcess(['--data', data], env, '000');
    try {
      await write(second.info);
      expect(modes()).toEqual({ 'sandbox.db': '600', 'sandbox.db-wal': '600', 'sandbox.db-shm': '600' });
    } finally {
      second.child.kill('SIGINT');
      await second.child;
    }
    expect(modes()).toEqual({ 'sandbox.db': '600' });
  });
});
