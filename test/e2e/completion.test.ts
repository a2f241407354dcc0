import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { binPath, isolatedEnv, msgctl } from '../helpers/cli.js';
// The command's usage error and help are its logic, checked in this process; the scripts come from the
// built binary (they name its version), as the install lines' do.
import { msgctl as inThisProcess } from '../helpers/in-process.js';
import { buildProgram } from '../../src/cli/program.js';
import { shQuote } from '../../src/cli/util/shell-word.js';
import { choicesOf } from '../../src/cli/commands/kit.js';
import { INSTALL_LINES, ZSHRC_LINE } from '../../src/cli/commands/completion/completion.js';
import type { Command } from 'commander';

const dir = mkdtempSync(join(tmpdir(), 'msgctl-completion-'));
const scripts: Record<string, string> = {};

beforeAll(async () => {
  // No base URL, no credential: generating completion must not need either.
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await msgctl(['completion', shell], { env: isolatedEnv() });
    expect(r.exitCode, r.stderr).toBe(0);
    scripts[shell] = r.stdout;
    writeFileSync(join(dir, `msgctl.${shell}`), r.stdout);
  }
});

/** Runs the completion function in a real bash for the words typed so far (the last one is being completed). */
function complete(...words: string[]): string[] {
  const script = [
    `source ${shQuote(join(dir, 'msgctl.bash'))}`,
    'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))',
    '_msgctl_completion',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const out = execFileSync('bash', ['-c', script, 'bash', ...words], { env: isolatedEnv(), encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/** Many completions in one bash process: one output block per case. */
function completeMany(cases: string[][]): string[][] {
  const script = [
    `source ${shQuote(join(dir, 'msgctl.bash'))}`,
    ...cases.map((words) =>
      [`COMP_WORDS=(${words.map(shQuote).join(' ')}); COMP_CWORD=${words.length - 1}`, '_msgctl_completion', 'printf "%s\\n" "${COMPREPLY[@]}" "--end--"'].join('; '),
    ),
  ].join('\n');
  const out = execFileSync('bash', ['-c', script], { env: isolatedEnv(), encoding: 'utf8' });
  const blocks = out.split('--end--\n').slice(0, -1);
  return blocks.map((b) => b.split('\n').filter(Boolean));
}

function hasShell(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0']).status === 0;
}

/** A skipped test says why in its name. */
const unlessInstalled = (shell: string) => (hasShell(shell) ? '' : ` — skipped: ${shell} is not installed here`);

const topLevel = buildProgram(() => async () => {}).commands.map((c) => c.name());

describe('bash completion', () => {
  it('offers every top-level command', () => {
    expect(complete('msgctl', '').sort()).toEqual([...topLevel].filter((n) => !n.startsWith('__')).sort());
  });

  it('completes a command from its prefix', () => {
    expect(complete('msgctl', 'pat')).toEqual(['patients']);
  });

  it('offers the subcommands of a group', () => {
    expect(complete('msgctl', 'patients', '').sort()).toEqual(['create', 'delete', 'get', 'list', 'update']);
  });

  it('finds the command after global flags and their values', () => {
    expect(complete('msgctl', '--profile', 'sandbox', '--json', 'patients', 'li')).toEqual(['list']);
  });

  it('completes a command\'s own flags, long and short', () => {
    expect(complete('msgctl', 'send', '--ch')).toEqual(['--channel']);
    expect(complete('msgctl', 'patients', 'delete', '-')).toEqual(expect.arrayContaining(['-y', '--yes', '-h', '--help']));
  });

  it('offers global flags on every command, but --version only at the top', () => {
    const flags = complete('msgctl', 'patients', 'list', '--');
    expect(flags).toEqual(expect.arrayContaining(['--phone', '--all', '--json', '--profile', '--base-url', '--timeout']));
    expect(flags).not.toContain('--version');
    expect(complete('msgctl', '--vers')).toEqual(['--version']);
  });

  it('offers the fixed values of a choices() flag', () => {
    expect(complete('msgctl', 'send', '--channel', '')).toEqual(['secure', 'sms']);
    expect(complete('msgctl', 'send', '--channel', 'sm')).toEqual(['sms']);
  });

  it('handles --flag=value, which bash splits at "="', () => {
    expect(complete('msgctl', 'send', '--channel', '=', '')).toEqual(['secure', 'sms']);
    expect(complete('msgctl', 'send', '--channel', '=', 'sms', '--dry')).toEqual(['--dry-run']);
  });

  it('offers the fixed values of positional arguments', () => {
    expect(complete('msgctl', 'completion', '')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
    expect(complete('msgctl', 'api', '')).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(complete('msgctl', 'api', 'GET', '')).toEqual([]);
  });

  it('leaves file names to bash where a flag takes a free value', () => {
    expect(complete('msgctl', 'api', 'POST', '/patients', '--input', '')).toEqual([]);
    expect(scripts.bash).toMatch(/complete -o default -F _msgctl_completion msgctl/);
  });

  it('does not offer hidden commands', () => {
    expect(complete('msgctl', '__')).toEqual([]);
  });
});

describe('bash completion follows the whole tree', () => {
  function* groups(cmd: Command, path: string[]): Generator<[string[], Command]> {
    yield [path, cmd];
    for (const sub of cmd.commands) yield* groups(sub, [...path, sub.name()]);
  }
  const all = [...groups(buildProgram(() => async () => {}), ['msgctl'])];

  it('offers exactly the subcommands of every group (campaigns, campaigns recipients, …)', () => {
    const withSubs = all.filter(([, cmd]) => cmd.commands.length > 0);
    const got = completeMany(withSubs.map(([path]) => [...path, '']));
    withSubs.forEach(([path, cmd], i) => {
      const expected = cmd.commands.map((c) => c.name()).filter((n) => !n.startsWith('__'));
      expect(got[i], path.join(' ')).toEqual(expected);
    });
    expect(withSubs.map(([path]) => path.join(' '))).toEqual(expect.arrayContaining(['msgctl campaigns', 'msgctl patients']));
  });

  it('offers the values of every choices() flag (--group-by, --order, --status, …)', () => {
    const flags = all.flatMap(([path, cmd]) =>
      cmd.options.filter((o) => choicesOf(o.parseArg)).map((o) => [path, o.long!, choicesOf(o.parseArg)!] as const),
    );
    const got = completeMany(flags.map(([path, flag]) => [...path, flag, '']));
    flags.forEach(([path, flag, values], i) => expect(got[i], `${path.join(' ')} ${flag}`).toEqual([...values]));
    expect(flags.map(([, flag]) => flag)).toEqual(expect.arrayContaining(['--channel']));
  });
});

describe('zsh and fish scripts', () => {
  it.skipIf(!hasShell('zsh'))(`zsh parses the script (zsh -n)${unlessInstalled('zsh')}`, () => {
    const r = spawnSync('zsh', ['-n', join(dir, 'msgctl.zsh')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.skipIf(!hasShell('fish'))(`fish parses the script (fish --no-execute)${unlessInstalled('fish')}`, () => {
    const r = spawnSync('fish', ['--no-execute', join(dir, 'msgctl.fish')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.skipIf(!hasShell('fish'))(`fish completes commands, subcommands and fixed values${unlessInstalled('fish')}`, () => {
    const complete = (line: string) => {
      const r = spawnSync('fish', ['-c', `source ${join(dir, 'msgctl.fish')}; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      return r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    };
    expect(complete('msgctl pat')).toEqual(['patients']);
    expect(complete('msgctl patients ')).toEqual(expect.arrayContaining(['list', 'get', 'create', 'update', 'delete']));
    expect(complete('msgctl send --channel ')).toEqual(['secure', 'sms']);
    expect(complete('msgctl send --ch')).toContain('--channel');
  });

  // Without zsh or fish installed (they are not installed for tests), check what can be checked from here.
  it('zsh: a #compdef function with described commands and choices() values', () => {
    expect(scripts.zsh!.split('\n')[0]).toBe('#compdef msgctl');
    expect(scripts.zsh).toContain(`('msgctl send|--channel') reply=('secure' 'sms') ;;`);
    expect(scripts.zsh).toMatch(/\('msgctl patients'\) reply=\('list:[^']+' /);
    expect(scripts.zsh).toContain('compdef _msgctl msgctl');
  });

  it('fish: complete rules for commands, flags and choices() values', () => {
    expect(scripts.fish).toMatch(/^complete -c msgctl -f -n '__msgctl_at "msgctl patients" 0' -a 'list' -d '.+'$/m);
    expect(scripts.fish).toMatch(/^complete -c msgctl -n '__msgctl_in "msgctl send"' -l 'channel' -x -a 'secure sms' -d '.+'$/m);
    expect(scripts.fish).toMatch(/^complete -c msgctl -f -n '__msgctl_at "msgctl completion" 0' -a 'bash zsh fish powershell'$/m);
  });

  it('bash parses the script (bash -n)', () => {
    const r = spawnSync('bash', ['-n', join(dir, 'msgctl.bash')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('msgctl completion', () => {
  it('refuses an unknown shell with exit 2', async () => {
    const r = await inThisProcess(['completion', 'cmd'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Allowed: bash, zsh, fish, powershell/);
  });

  it('--help explains how to install the script for each shell', async () => {
    const r = await inThisProcess(['completion', '--help'], { env: isolatedEnv() });
    expect(r.stdout).toContain('source <(msgctl completion bash)');
    expect(r.stdout).toContain('~/.local/share/bash-completion/completions/msgctl');
    for (const line of Object.values(INSTALL_LINES)) expect(r.stdout).toContain(line);
    expect(r.stdout).toContain(ZSHRC_LINE);
    expect(r.stdout).not.toContain('${fpath[1]}');
    expect(r.stdout).toContain('~/.config/fish/completions/msgctl.fish');
  });
});

/**
 * The install lines of `msgctl completion --help`, run as written in real
 * shells with a fresh HOME (none of the target directories exist yet) and
 * `msgctl` on PATH, then the installed completion loaded the way that shell
 * loads it. The zsh line is also run from bash: it must not depend on zsh's
 * variables (`${fpath[1]}` is empty elsewhere).
 */
describe('completion install lines', () => {
  function freshHome(): { env: Record<string, string | undefined>; home: string } {
    const env = isolatedEnv();
    const home = env.HOME!;
    const binDir = join(home, 'bin');
    mkdirSync(binDir);
    const shim = join(binDir, 'msgctl');
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${binPath()}" "$@"\n`);
    chmodSync(shim, 0o755);
    return { env: { ...env, PATH: `${binDir}:${process.env.PATH}` }, home };
  }

  const installed = { bash: '.local/share/bash-completion/completions/msgctl', zsh: '.zfunc/_msgctl', fish: '.config/fish/completions/msgctl.fish' };
  const cases: [keyof typeof INSTALL_LINES, string][] = [['bash', 'bash'], ['zsh', 'zsh'], ['zsh', 'bash'], ['fish', 'fish']];

  for (const [target, runIn] of cases) {
    it.skipIf(!hasShell(runIn))(`the ${target} line works in ${runIn} with a fresh HOME${unlessInstalled(runIn)}`, () => {
      const { env, home } = freshHome();
      const r = spawnSync(runIn, ['-c', INSTALL_LINES[target]], { env, cwd: home, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(existsSync(join(home, installed[target]))).toBe(true);
      expect(readFileSync(join(home, installed[target]), 'utf8')).toBe(scripts[target]);
    });
  }

  /**
   * A fresh HOME holding what the `target` line leaves there (the tests above check it byte for
   * byte, running the line): the shell loads it from there. Written here, not by running the line
   * again, which cost each test below another msgctl process that proves nothing new.
   */
  function installedHome(target: keyof typeof installed): { env: Record<string, string | undefined>; home: string } {
    const fresh = freshHome();
    mkdirSync(dirname(join(fresh.home, installed[target])), { recursive: true });
    writeFileSync(join(fresh.home, installed[target]), scripts[target]!);
    return fresh;
  }

  it('the bash completion loads from where the line put it', () => {
    const { env, home } = installedHome('bash');
    const script = `source ~/${installed.bash}\ncomplete -p msgctl`;
    const r = spawnSync('bash', ['-c', script], { env, cwd: home, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/-F _msgctl_completion msgctl/);
  });

  it.skipIf(!hasShell('zsh'))(`zsh finds _msgctl through the ~/.zshrc line${unlessInstalled('zsh')}`, () => {
    const { env, home } = installedHome('zsh');
    const r = spawnSync('zsh', ['-f', '-c', `${ZSHRC_LINE} -u\nprint -r -- $_comps[msgctl]`], { env, cwd: home, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('_msgctl');
  });

  it.skipIf(!hasShell('fish'))(`fish loads the installed file by itself${unlessInstalled('fish')}`, () => {
    const { env, home } = installedHome('fish');
    const r = spawnSync('fish', ['-c', `complete -C 'msgctl pat'`], { env, cwd: home, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^patients\t/m);
  });
});
