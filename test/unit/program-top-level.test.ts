/**
 * `msgctl` and `msgctl --help` build only the top level of the command tree
 * (start-up cost); this proves the help they print is exactly the full tree's.
 */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { firstCommandName } from '../../src/cli/cli.js';

const noop = () => async () => {};

describe('top-level-only command tree', () => {
  it('prints the same root help as the full tree', () => {
    const full = buildProgram(noop).helpInformation();
    const shallow = buildProgram(noop, { topLevelOnly: true }).helpInformation();
    expect(shallow).toBe(full);
    expect(full).toMatch(/campaigns/);
  });

  it('has the same top-level commands, but no subcommands', () => {
    const full = buildProgram(noop);
    const shallow = buildProgram(noop, { topLevelOnly: true });
    expect(shallow.commands.map((c) => c.name())).toEqual(full.commands.map((c) => c.name()));
    expect(full.commands.find((c) => c.name() === 'patients')!.commands.length).toBeGreaterThan(3);
    expect(shallow.commands.find((c) => c.name() === 'patients')!.commands).toHaveLength(0);
  });

  it('builds one command in full and the others top-level only, with the same help for it', () => {
    const full = buildProgram(noop);
    const one = buildProgram(noop, { only: 'patients' });
    expect(one.commands.map((c) => c.name())).toEqual(full.commands.map((c) => c.name()));
    const patients = (p: typeof full) => p.commands.find((c) => c.name() === 'patients')!;
    expect(patients(one).commands.map((c) => c.name())).toEqual(patients(full).commands.map((c) => c.name()));
    for (const verb of patients(full).commands) {
      expect(patients(one).commands.find((c) => c.name() === verb.name())!.helpInformation()).toBe(verb.helpInformation());
    }
    expect(one.commands.find((c) => c.name() === 'campaigns')!.commands).toHaveLength(0);
    expect(one.helpInformation()).toBe(full.helpInformation());
  });

  it('builds the whole tree for an unknown word and for commands that read the tree', () => {
    const count = (p: ReturnType<typeof buildProgram>) => p.commands.reduce((n, c) => n + c.commands.length, 0);
    const all = count(buildProgram(noop));
    for (const word of ['sned', 'completion', '__reference', 'help']) expect(count(buildProgram(noop, { only: word })), word).toBe(all);
  });

  it('finds the command name after global options and their values', () => {
    expect(firstCommandName([])).toBeUndefined();
    expect(firstCommandName(['--help'])).toBeUndefined();
    expect(firstCommandName(['--profile', 'prod', '--json', '--help'])).toBeUndefined();
    expect(firstCommandName(['--profile', 'prod', 'send', '--to', 'x'])).toBe('send');
    expect(firstCommandName(['--timeout', '5', 'patients', 'list'])).toBe('patients');
    expect(firstCommandName(['--base-url=http://x/v1', 'org'])).toBe('org');
  });
});
