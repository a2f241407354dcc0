/**
 * `msgctl help TOPIC` and help that fits the terminal (issue 29 item 6).
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { isolatedEnv, msgctl } from '../helpers/in-process.js';

const env = () => isolatedEnv();

describe('msgctl help', () => {
  it.each(['environment', 'exit-codes', 'formatting', 'dates'])('prints the %s topic on stdout, exit 0', async (topic) => {
    const r = await msgctl(['help', topic], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.length).toBeGreaterThan(300);
  });

  it('the environment topic names the cron credentials', async () => {
    const r = await msgctl(['help', 'environment'], { env: env() });
    expect(r.stdout).toMatch(/^ {2}MSGCTL_API_KEY /m);
    expect(r.stdout).toMatch(/^ {2}MSGCTL_TOKEN /m);
  });

  it('an unknown topic is exit 2 saying so, with the topics and commands there are', async () => {
    const r = await msgctl(['help', 'enviroment'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown help topic "enviroment"/);
    expect(r.stderr).toContain('Topics: environment (');
    expect(r.stderr).toContain('exit-codes');
    expect(r.stderr).toMatch(/Commands: login, auth, .*patients/);
  });

  it('help COMMAND… prints that command\'s help; bare help the root help', async () => {
    const r = await msgctl(['help', 'campaigns', 'start'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe((await msgctl(['campaigns', 'start', '--help'], { env: env() })).stdout);
    const root = await msgctl(['help'], { env: env() });
    expect(root.stdout).toMatch(/^Usage: msgctl \[options\] \[command\]/);
    expect(root.stdout).toContain('msgctl help environment');
    expect(root.stdout).toMatch(/Docs: man msgctl, and \/.*docs\/README\.md/);
    expect(root.stdout).not.toContain('help [command]');
  });
});

describe('help fits the terminal', () => {
  it('wraps at the terminal width (examples excepted), and at 80 columns in a pipe', async () => {
    for (const columns of [60, 100]) {
      const r = await msgctl(['conversations', '--help'], { env: env(), tty: true, columns });
      const lines = r.stdout.split('\n');
      const examples = lines.indexOf('Examples:');
      for (const line of lines.slice(0, examples)) expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(columns);
    }
    const piped = await msgctl(['me', '--help'], { env: env() });
    const body = piped.stdout.split('\nExamples:')[0]!;
    for (const line of body.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    const wide = await msgctl(['me', '--help'], { env: env(), tty: true, columns: 160 });
    expect(wide.stdout.split('\n').some((line) => line.length > 80)).toBe(true);
  });
});

describe('positional arguments are described', () => {
  function* walk(cmd: Command): Generator<Command> {
    for (const sub of cmd.commands) {
      yield sub;
      yield* walk(sub);
    }
  }
  it('every argument of every command has a description (so help shows an Arguments section)', () => {
    const bare: string[] = [];
    for (const cmd of walk(buildProgram(() => async () => {}))) {
      for (const arg of cmd.registeredArguments) if (!arg.description) bare.push(`${cmd.name()} <${arg.name()}>`);
    }
    expect(bare).toEqual([]);
  });
});
