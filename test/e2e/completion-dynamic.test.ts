/**
 * Dynamic completion (issue 29 item 7): TAB after `--profile` or `profiles use`
 * offers the profiles of the config file, and after `campaigns get`,
 * `conversations get` or `imports get` the ids the service (or, for imports,
 * this machine) knows, through `msgctl __complete KIND`, in real bash, zsh and
 * fish with a fresh HOME. zsh and fish are skipped where not installed (CI
 * installs them). What a service answers is hostile: TAB never runs it as a
 * command nor offers anything but ids.
 */
import { spawnSync } from 'node:child_process';
import { execa } from 'execa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { binPath, isolatedEnv, jsonLines } from '../helpers/cli.js';
// The set-up and `__complete` itself run in this process; the shells below run the built binary.
import { msgctl } from '../helpers/in-process.js';

const sandbox = useSandbox();
const hasShell = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const unlessInstalled = (shell: string) => (hasShell(shell) ? '' : ` — skipped: ${shell} is not installed here`);

let env: Record<string, string | undefined>;
let campaignId: string;
let importId: string;

beforeAll(async () => {
  env = isolatedEnv();
  // `msgctl` on PATH, as after a global install: the scripts call it by name.
  const bin = join(env.HOME!, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'msgctl'), `#!/bin/sh\nexec "${process.execPath}" "${binPath()}" "$@"\n`);
  chmodSync(join(bin, 'msgctl'), 0o755);
  env.PATH = `${bin}:${env.PATH}`;
  // Two profiles: "clinic" (default) points at the sandbox, "other" at nothing that answers.
  const config = join(env.XDG_CONFIG_HOME!, 'msgctl');
  mkdirSync(config, { recursive: true });
  const key = { kind: 'api_key', storage: 'file' };
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({ default_profile: 'clinic', profiles: { clinic: { base_url: sandbox.current.baseUrl, credential: key }, other: { base_url: 'http://127.0.0.1:9/v1', credential: key } } }),
  );
  const secret = JSON.stringify({ kind: 'api_key', api_key: sandbox.current.credentials.api_key });
  writeFileSync(join(config, 'credentials.json'), JSON.stringify({ clinic: secret, other: secret }), { mode: 0o600 });
  const created = await msgctl(['campaigns', 'create', '--name', 'Flu shots', '--body', 'Flu shots are in', '--json'], { env });
  campaignId = jsonLines(created.stdout)[0].id;
  const roster = join(env.HOME!, 'roster.csv');
  writeFileSync(roster, 'First Name,Last Name,Mobile Phone\nIvy,Tran,+15555558801\n');
  const imported = await msgctl(['imports', 'create', roster, '--json'], { env });
  expect(imported.exitCode, imported.stderr).toBe(0);
  importId = jsonLines(imported.stdout)[0].id;
  // Each shell's script, generated once (as an install does), sourced by every case below.
  for (const shell of ['bash', 'zsh', 'fish']) {
    const generated = await msgctl(['completion', shell], { env });
    writeFileSync(join(env.HOME!, `msgctl.${shell}`), generated.stdout);
  }
});

const scriptFor = (shell: string) => JSON.stringify(join(env.HOME!, `msgctl.${shell}`));

describe('msgctl __complete', () => {
  it('prints value<TAB>description lines: profiles, campaigns, imports created here', async () => {
    expect((await msgctl(['__complete', 'profiles'], { env })).stdout).toBe(`clinic\t${sandbox.current.baseUrl}\nother\thttp://127.0.0.1:9/v1\n`);
    expect((await msgctl(['__complete', 'campaigns'], { env })).stdout).toContain(`${campaignId}\tFlu shots (draft)\n`);
    expect((await msgctl(['__complete', 'imports'], { env })).stdout).toBe(`${importId}\tcreated from this machine\n`);
    expect((await msgctl(['__complete', 'conversations'], { env })).exitCode).toBe(0);
  });

  it('prints nothing and exits 0 when the service cannot be reached (never an error in the prompt)', async () => {
    const r = await msgctl(['--profile', 'other', '__complete', 'campaigns'], { env });
    expect(r).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const none = await msgctl(['__complete', 'campaigns'], { env: isolatedEnv() });
    expect(none).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});

/** Runs a shell without blocking this process: the sandbox answering the completions lives in it. */
async function shell(command: string, args: string[], shellEnv = env) {
  const r = await execa(command, args, { env: shellEnv, extendEnv: false, reject: false, timeout: 30_000 });
  return { status: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

async function bashComplete(...words: string[]): Promise<string[]> {
  return bashCompleteIn(env, ...words);
}

async function bashCompleteIn(shellEnv: typeof env, ...words: string[]): Promise<string[]> {
  const script = [`source ${scriptFor('bash')}`, 'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))', '_msgctl_completion', 'printf "%s\\n" "${COMPREPLY[@]}"'].join('\n');
  const r = await shell('bash', ['-c', script, 'bash', ...words], shellEnv);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

describe('bash', () => {
  it('completes profile names after --profile and profiles use', async () => {
    expect(await bashComplete('msgctl', '--profile', '')).toEqual(['clinic', 'other']);
    expect(await bashComplete('msgctl', 'profiles', 'use', 'o')).toEqual(['other']);
  });

  it('completes campaign and import ids, for the profile typed on the line', async () => {
    expect(await bashComplete('msgctl', 'campaigns', 'get', '')).toContain(campaignId);
    expect(await bashComplete('msgctl', 'campaigns', 'recipients', 'add', campaignId.slice(0, 8))).toEqual([campaignId]);
    expect(await bashComplete('msgctl', 'imports', 'get', '')).toEqual([importId]);
    // The profile on the line is the one asked: "other" reaches no service, so nothing is offered.
    expect(await bashComplete('msgctl', '--profile', 'other', 'campaigns', 'get', '')).toEqual([]);
  });
});

describe('zsh', () => {
  it.skipIf(!hasShell('zsh'))(`asks msgctl for values and offers them with their descriptions${unlessInstalled('zsh')}`, async () => {
    const script = [
      'autoload -Uz compinit && compinit -u -D',
      `source ${scriptFor('zsh')}`,
      '_msgctl_arg_dynamic "msgctl campaigns get|0"; print -r -- "kind=${reply[1]}"',
      '_msgctl_flag_dynamic "msgctl patients list|--profile"; print -r -- "flag=${reply[1]}"',
      '_msgctl_dynamic campaigns ""; print -rl -- $reply',
      '_msgctl_dynamic profiles ""; print -rl -- $reply',
      '_msgctl_dynamic campaigns other; print -r -- "other=${#reply}"',
    ].join('\n');
    const r = await shell('zsh', ['-c', script]);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines).toContain('kind=campaigns');
    expect(lines).toContain('flag=profiles');
    expect(lines).toContain(`${campaignId}:Flu shots (draft)`);
    expect(lines).toContain(`clinic:${sandbox.current.baseUrl.replace(/:/g, ':')}`);
    expect(lines).toContain('other=0');
  });
});

describe('fish', () => {
  it.skipIf(!hasShell('fish'))(`completes profiles and campaign ids in the real shell${unlessInstalled('fish')}`, async () => {
    const complete = async (line: string) => {
      const r = await shell('fish', ['-c', `source ${scriptFor('fish')}; complete -C ${JSON.stringify(line)}`]);
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter(Boolean);
    };
    expect(await complete('msgctl --profile ')).toEqual([`clinic\t${sandbox.current.baseUrl}`, 'other\thttp://127.0.0.1:9/v1']);
    expect(await complete('msgctl profiles use ')).toEqual(expect.arrayContaining([expect.stringMatching(/^clinic\t/)]));
    expect(await complete('msgctl campaigns get ')).toContain(`${campaignId}\tFlu shots (draft)`);
    expect(await complete('msgctl imports get ')).toEqual([`${importId}\tcreated from this machine`]);
    expect(await complete('msgctl --profile other campaigns get ')).toEqual([]);
  });
});

describe('a hostile service (or a file it wrote an id into): TAB offers ids only and runs nothing', () => {
  const ID = '3f0c2a4e-8b1d-4c2e-9f3a-1b2c3d4e5f60';
  /** A file each hostile value would create if a shell ran it. */
  const marker = (name: string) => join(env.HOME!, `ran-${name}`);
  const hostileIds = (name: string) => [`$(touch ${marker(name)})`, `\`touch ${marker(name)}-backticks\``, 'x; y', '~root', '{a,b}', 'a\nb', '\u001b[2J'];

  it('`__complete` leaves out every id that is not an id (a UUID; imp_… for imports), and bash completes only the real one', async () => {
    const server = createServer((req, res) => {
      const records = [...hostileIds(req.url!.includes('campaigns') ? 'campaigns' : 'conversations').map((id) => ({ id, name: 'x', status: 'draft', title: 'x' })), null, 5, { id: ID, name: 'Flu \u001b]0;owned\u0007shots', status: 'draft', title: 'Ivy' }];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: records, next_cursor: null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const hostile: typeof env = { ...env, MSGCTL_BASE_URL: baseUrl, MSGCTL_API_KEY: 'msk_test_hostile' };
      const offered = await msgctl(['__complete', 'campaigns'], { env: hostile });
      expect(offered.stdout).toBe(`${ID}\tFlu \\x1b]0;owned\\x07shots (draft)\n`);
      expect((await msgctl(['__complete', 'conversations'], { env: hostile })).stdout).toBe(`${ID}\tIvy\n`);
      expect(await bashCompleteIn(hostile, 'msgctl', 'campaigns', 'get', '')).toEqual([ID]);
      expect(await bashCompleteIn(hostile, 'msgctl', 'conversations', 'get', '')).toEqual([ID]);
      // Import ids come from this machine's state file, which keeps what services answered.
      const state = join(hostile.XDG_STATE_HOME!, 'msgctl');
      mkdirSync(state, { recursive: true });
      writeFileSync(join(state, 'recent-imports.json'), JSON.stringify({ [baseUrl]: [...hostileIds('imports'), 'imp_3f0c2a4e8b1d4c369a512d0c'] }));
      expect((await msgctl(['__complete', 'imports'], { env: hostile })).stdout).toBe('imp_3f0c2a4e8b1d4c369a512d0c\tcreated from this machine\n');
      expect(await bashCompleteIn(hostile, 'msgctl', 'imports', 'get', '')).toEqual(['imp_3f0c2a4e8b1d4c369a512d0c']);
      for (const kind of ['campaigns', 'conversations', 'imports']) for (const suffix of ['', '-backticks']) expect(existsSync(marker(kind) + suffix)).toBe(false);
    } finally {
      server.close();
    }
  });

  it('the scripts take what msgctl prints as it is: nothing in it is expanded or run (bash; zsh and fish where installed)', async () => {
    // A stand-in `msgctl` first on PATH that offers hostile values, to prove the script's own part.
    const bin = join(env.HOME!, 'hostile-bin');
    mkdirSync(bin, { recursive: true });
    const lines = hostileIds('script').filter((id) => !id.includes('\n')).concat(ID).map((id) => `${id}\tdescription`);
    writeFileSync(join(bin, 'msgctl'), `#!/bin/sh\ncat <<'EOF'\n${lines.join('\n')}\nEOF\n`);
    chmodSync(join(bin, 'msgctl'), 0o755);
    const shellEnv = { ...env, PATH: `${bin}:${env.PATH}` };
    const offered = await bashCompleteIn(shellEnv, 'msgctl', 'campaigns', 'get', '');
    // Before: compgen -W ran the command substitution and the backticks, and split the rest.
    for (const suffix of ['', '-backticks']) expect(existsSync(marker('script') + suffix), `ran${suffix}`).toBe(false);
    expect(offered).toEqual(lines.map((line) => line.split('\t')[0]));
    expect(await bashCompleteIn(shellEnv, 'msgctl', 'campaigns', 'get', '3f')).toEqual([ID]);
    // zsh and fish take them as text too (where installed: CI installs both).
    if (hasShell('zsh')) {
      const zsh = await shell('zsh', ['-c', ['autoload -Uz compinit && compinit -u -D', `source ${scriptFor('zsh')}`, '_msgctl_dynamic campaigns ""; print -rl -- $reply'].join('\n')], shellEnv);
      expect(zsh.stdout.split('\n').filter(Boolean)).toEqual(lines.map((line) => line.replace(/:/g, '\\:').replace('\t', ':')));
    }
    if (hasShell('fish')) {
      const fish = await shell('fish', ['-c', `source ${scriptFor('fish')}; complete -C ${JSON.stringify('msgctl campaigns get ')}`], shellEnv);
      expect(fish.stdout.split('\n').filter(Boolean).sort()).toEqual([...lines].sort());
    }
    for (const suffix of ['', '-backticks']) expect(existsSync(marker('script') + suffix), `ran${suffix} (zsh, fish)`).toBe(false);
  });
});
