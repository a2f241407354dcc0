/**
 * `msgctl doctor` (issue 29 item 3): one line per check with a fix, --json,
 * exit 1 when something is wrong; the credential's source named.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { HttpTransport } from '../../src/cli/api/http.js';
import { schedulerPath } from '../../src/cli/doctor/scheduler-path.js';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();

async function doctor(env: Record<string, string | undefined>, extra: Parameters<typeof msgctl>[1] = { env }) {
  const r = await msgctl(['doctor', '--json'], { ...extra, env });
  const lines = jsonLines(r.stdout);
  return { ...r, lines, line: (check: string) => lines.find((l) => l.check === check) };
}

describe('msgctl doctor', () => {
  it('one JSON line per check; a working key from MSGCTL_API_KEY is named; exit 0 with warnings only', async () => {
    const r = await doctor(sandboxEnv(sandbox.current));
    expect(r.lines.map((l) => l.check)).toEqual(['node', expect.stringMatching(/PATH$/), 'keychain', 'credential', 'network', 'clock', 'folders']);
    for (const l of r.lines) expect(Object.keys(l)).toEqual(['check', 'status', 'detail', 'fix']);
    expect(r.line('node')).toMatchObject({ status: 'ok', detail: expect.stringContaining(process.version) });
    expect(r.line('credential')).toMatchObject({ status: 'ok', detail: 'API key from MSGCTL_API_KEY works: Riverside Family Clinic' });
    expect(r.line('network')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/answers \(HTTP 401\) directly$/) });
    expect(r.line('clock')!.status).toBe('ok');
    expect(r.lines.some((l) => l.status === 'fail')).toBe(false);
    expect(r.exitCode).toBe(0);
  });

  it('a refused MSGCTL_API_KEY fails, naming the variable and saying auth set-key would not help; exit 1', async () => {
    const r = await doctor(sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'msk_test_wrong' }));
    expect(r.exitCode).toBe(1);
    expect(r.line('credential')).toMatchObject({
      status: 'fail',
      detail: 'API key from MSGCTL_API_KEY was refused (HTTP 401 invalid_token)',
      fix: expect.stringContaining('fix MSGCTL_API_KEY or unset it (`unset MSGCTL_API_KEY`)'),
    });
  });

  it('a base URL nothing answers: network fails with the way out, the credential is not judged', async () => {
    const r = await doctor(isolatedEnv({ MSGCTL_BASE_URL: 'http://127.0.0.1:9/v1', MSGCTL_API_KEY: 'msk_test_x' }));
    expect(r.exitCode).toBe(1);
    expect(r.line('network')).toMatchObject({ status: 'fail', detail: expect.stringContaining('ECONNREFUSED'), fix: expect.stringContaining('msgctl sandbox') });
    expect(r.line('credential')!.status).toBe('skip');
    expect(r.line('clock')).toMatchObject({ status: 'skip', detail: 'nothing to compare with: the service could not be reached (network, above)' });
  });

  it('says when the base URL is reached through a proxy (HTTPS_PROXY), and that the proxy is what fails', async () => {
    const r = await doctor(isolatedEnv({ MSGCTL_BASE_URL: 'https://api.example.invalid/v1', MSGCTL_API_KEY: 'msk_test_x', HTTPS_PROXY: 'http://127.0.0.1:9' }));
    expect(r.exitCode).toBe(1);
    expect(r.line('network')).toMatchObject({ status: 'fail', detail: expect.stringContaining('cannot be reached through the proxy http://127.0.0.1:9/') });
  });

  it('no credential: fails and lists the profiles that have one', async () => {
    const env = isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl });
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'msgctl'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'config.json'), JSON.stringify({ profiles: { sandbox: { base_url: sandbox.current.baseUrl, credential: { kind: 'api_key', storage: 'file' } } } }));
    const r = await doctor(env);
    expect(r.exitCode).toBe(1);
    expect(r.line('credential')).toMatchObject({ status: 'fail', detail: 'profile "default" has no credential', fix: expect.stringContaining('--profile sandbox') });
  });

  it('compares the clock with the service\'s Date header', async () => {
    const ahead: HttpTransport = {
      async request() {
        return { status: 401, headers: { date: new Date(Date.now() - 10 * 60_000).toUTCString() }, body: Readable.from([]) };
      },
      async close() {},
    };
    const r = await doctor(sandboxEnv(sandbox.current), { env: {}, services: { transport: async () => ahead } });
    expect(r.line('clock')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^this machine is 60\d s ahead of the service$/), fix: expect.stringContaining('network time') });
  });

  it('a config folder others can write to fails', async () => {
    if (process.platform === 'win32') return;
    const env = sandboxEnv(sandbox.current);
    const dir = join(env.XDG_CONFIG_HOME!, 'msgctl');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const r = await doctor(env);
    expect(r.exitCode).toBe(1);
    expect(r.line('folders')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`${dir} is writable by other users (mode 0777)`), fix: expect.stringContaining(`chmod go-w ${dir}`) });
  });

  it('counts a folder above the config and state folders, as msgctl does before using them', async () => {
    if (process.platform === 'win32') return;
    const env = sandboxEnv(sandbox.current);
    const above = join(env.XDG_STATE_HOME!, 'shared');
    const state = join(above, 'state');
    mkdirSync(join(state, 'msgctl'), { recursive: true });
    chmodSync(above, 0o777);
    const r = await doctor({ ...env, XDG_STATE_HOME: state });
    expect(r.exitCode).toBe(1);
    expect(r.line('folders')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`${above} is writable by other users (mode 0777), so they could replace ${state}`) });
  });

  it("passes a folder writable by the user's own private group (umask 002), which msgctl uses", async (context) => {
    if (process.platform === 'win32') return;
    // bin/own-path.js: the primary group, named like the user, with no other member in /etc/group.
    const { gid, username } = userInfo();
    const line = readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.split(':')[2] === String(gid));
    const [name, , , members = ''] = line ? line.split(':') : [];
    if (name !== username || members.split(',').some((m) => m !== '' && m !== username)) return context.skip(`${username}'s primary group is not a private one`);
    const env = sandboxEnv(sandbox.current);
    const config = join(env.XDG_CONFIG_HOME!, 'msgctl');
    mkdirSync(config, { recursive: true });
    chmodSync(config, 0o775);
    expect((await doctor(env)).line('folders')).toMatchObject({ status: 'ok' });
  });

  it('on a terminal: one line per check, its fix beneath; piped: status<TAB>check<TAB>detail<TAB>fix', async () => {
    const env = sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'msk_test_wrong' });
    const tty = await msgctl(['doctor'], { env, tty: true, columns: 200 });
    expect(tty.stdout).toMatch(/^FAIL {2}credential +API key from MSGCTL_API_KEY was refused/m);
    expect(tty.stdout).toMatch(/^ +fix: fix MSGCTL_API_KEY or unset it/m);
    expect(tty.stderr).toMatch(/1 problem\(s\) to fix/);
    // At 80 columns a long detail continues under its own column; a fix (a command to copy) stays whole.
    const narrow = await msgctl(['doctor'], { env, tty: true, columns: 80 });
    const lines = narrow.stdout.split('\n');
    const at = lines.findIndex((l) => /^FAIL {2}credential /.test(l));
    expect(lines[at]!.length).toBeLessThanOrEqual(80);
    expect(lines[at + 1]).toMatch(/^ {18}\S/);
    expect(lines.find((l) => /^ +fix: fix MSGCTL_API_KEY/.test(l))).toMatch(/would not change what is sent$/);
    const piped = await msgctl(['doctor'], { env });
    expect(piped.stdout.split('\n').filter(Boolean)).toHaveLength(7);
    expect(piped.stdout).toMatch(/^fail\tcredential\tAPI key from MSGCTL_API_KEY was refused \(HTTP 401 invalid_token\)\tfix MSGCTL_API_KEY or unset it/m);
  });
});

describe('the PATH a scheduler sees', () => {
  const where = { command: '/home/u/.local/bin/msgctl', script: '/home/u/.local/lib/node_modules/msgctl/bin/msgctl.js' };
  function folder(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-path-'));
    for (const [name, body] of Object.entries(files)) {
      writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(dir, name), 0o755);
    }
    return dir;
  }

  it('no msgctl on cron\'s PATH: exit 127 for the job; the fix is the PATH line with node and msgctl first', async () => {
    if (process.platform === 'win32') return;
    const r = await schedulerPath({}, where, 'linux', folder({}));
    expect(r).toMatchObject({ check: 'cron PATH', status: 'warn', detail: expect.stringContaining('finds no msgctl (exit 127)') });
    expect(r.fix).toContain(`in the crontab, above the job: PATH=${join(process.execPath, '..')}:/home/u/.local/bin:`);
    expect(r.fix).toContain(`or run it by absolute paths: ${process.execPath} ${where.script}`);
  });

  it('msgctl there, but its #!/usr/bin/env node finds an old Node: says which, which msgctl refuses', async () => {
    if (process.platform === 'win32') return;
    const dir = folder({ msgctl: 'exit 0', node: 'echo v20.20.2' });
    const r = await schedulerPath({}, where, 'linux', dir);
    expect(r).toMatchObject({ status: 'warn', detail: `${dir}/msgctl is there, but its #!/usr/bin/env node finds ${dir}/node v20.20.2, which msgctl refuses (22.13+)` });
    const ok = await schedulerPath({}, where, 'linux', folder({ msgctl: 'exit 0', node: 'echo v24.1.0' }));
    expect(ok.status).toBe('ok');
  });

  it('names node by the link on the user\'s PATH when that is this Node (~/.local/bin/node, not the file it points to)', async () => {
    if (process.platform === 'win32') return;
    const { symlinkSync } = await import('node:fs');
    const dir = folder({});
    symlinkSync(process.execPath, join(dir, 'node'));
    const r = await schedulerPath({ PATH: dir }, where, 'linux', folder({}));
    expect(r.fix).toContain(`PATH=${dir}:/home/u/.local/bin:`);
    expect(r.fix).toContain(`absolute paths: ${dir}/node `);
  });

  it('launchd on macOS: the fix goes in the plist; Windows: not applicable', async () => {
    const mac = await schedulerPath({}, where, 'darwin', folder({}));
    expect(mac).toMatchObject({ check: 'launchd PATH', status: 'warn', fix: expect.stringContaining('in the plist, EnvironmentVariables PATH = ') });
    expect((await schedulerPath({}, where, 'win32')).status).toBe('skip');
  });
});
