/**
 * Holds every command to product.md §3 "every command has --help with at least
 * one example": walks the whole commander tree, so a command added anywhere is
 * checked without this file changing. Failures list every offending command.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { examplesOf } from '../../src/cli/commands/kit.js';

const program = buildProgram(() => async () => {});

function* everyCommand(cmd: Command, path: string[] = []): Generator<[string, Command]> {
  for (const sub of cmd.commands) {
    const subPath = [...path, sub.name()];
    yield [subPath.join(' '), sub];
    yield* everyCommand(sub, subPath);
  }
}

const commands = [...everyCommand(program)];

describe('help of every command', () => {
  it('walks a tree that has commands and nested subcommands', () => {
    const names = commands.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['patients', 'patients list', 'api', 'completion']));
  });

  it('every command has a description', () => {
    const missing = commands.filter(([, cmd]) => !cmd.description().trim()).map(([name]) => name);
    expect(missing, `commands without a description: ${missing.join(', ')}`).toEqual([]);
    expect(program.description()).not.toBe('');
  });

  it('every command has at least one example (kit examples())', () => {
    const missing = commands.filter(([, cmd]) => !(examplesOf(cmd)?.length)).map(([name]) => name);
    expect(missing, `commands without examples(): ${missing.join(', ')}`).toEqual([]);
  });

  it('every command has an example that runs that command', () => {
    // "msgctl [global flags…] patients list …", also inside pipes and $(…).
    const unrealistic = commands
      .filter(([name, cmd]) => {
        const lines = examplesOf(cmd) ?? [];
        return lines.length > 0 && !lines.some((line) => runs(line, name));
      })
      .map(([name]) => name);
    expect(unrealistic, `commands whose examples never run them: ${unrealistic.join(', ')}`).toEqual([]);
  });

  it('every option of every command has a description', () => {
    const undocumented = [['msgctl', program] as [string, Command], ...commands].flatMap(([name, cmd]) =>
      cmd.options.filter((o) => !o.description?.trim()).map((o) => `${name} ${o.flags}`),
    );
    expect(undocumented, `options without a description: ${undocumented.join(', ')}`).toEqual([]);
  });
});

describe('help text a person reads', () => {
  const helpOf = (cmd: Command) => cmd.helpInformation();

  it('no boolean flag says "(default: false)"', () => {
    const noisy = [['msgctl', program] as [string, Command], ...commands].filter(([, cmd]) => helpOf(cmd).includes('(default: false)')).map(([name]) => name);
    expect(noisy, `help with "(default: false)": ${noisy.join(', ')}`).toEqual([]);
  });

  it('every subcommand names the global options it inherits (--json, --profile…)', () => {
    const silent = commands
      .filter(([, cmd]) => !/Global Options:[\s\S]*--profile <name>[\s\S]*--json/.test(helpOf(cmd)))
      .map(([name]) => name);
    expect(silent, `help without the global options: ${silent.join(', ')}`).toEqual([]);
  });

  it('declares --wide once (kit.wideOption) for the list commands', () => {
    for (const name of ['patients list', 'campaigns list', 'messages list', 'conversations list', 'me messages']) {
      const cmd = commands.find(([n]) => n === name)![1];
      expect(helpOf(cmd), name).toContain('--wide');
    }
  });
});

describe('what counts as an example running a command', () => {
  it.each([
    ['msgctl --profile sandbox send --to x hi', 'send', true],
    ['msgctl --json patients list --all', 'patients list', true],
    ['source <(msgctl completion bash)', 'completion', true],
    ["jq -n '{}' | msgctl api POST /patients --input -", 'api', true],
    ['msgctl patients get x', 'patients list', false],
    ['msgctl sandbox --port 0', 'send', false],
    ['msgctl patients-list', 'patients', false],
  ])('%j runs %j: %s', (line, path, expected) => {
    expect(runs(line, path)).toBe(expected);
  });
});

function runs(line: string, commandPath: string): boolean {
  const words = commandPath.split(' ');
  const pattern = new RegExp(`\\bmsgctl(\\s+-\\S+(\\s+(?!-)[^\\s|;]+)?)*?\\s+${words.map(escape).join('\\s+')}(\\s|$|\\))`);
  return pattern.test(line);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
