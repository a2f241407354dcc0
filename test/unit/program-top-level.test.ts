/**
 * `msgctl` and `msgctl --help` build only the top level of the command tree
 * (start-up cost); this proves the help they print is exactly the full tree's.
 */
import { describe, expect, it } from 'vitest';
import { buildProgram, TOP_LEVEL } from '../../src/cli/program.js';
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

  it('builds the command being run alone, exactly as in the whole tree', () => {
    const full = buildProgram(noop);
    expect(TOP_LEVEL.flatMap(([names]) => names)).toEqual(full.commands.map((c) => c.name()));
    for (const [names] of TOP_LEVEL) {
      for (const name of names) {
        if (name === 'completion' || name === '__reference' || name === 'help') continue;
        const one = buildProgram(noop, { only: name });
        expect(one.commands.map((c) => c.name())).toEqual(names);
        const built = one.commands.find((c) => c.name() === name)!;
        const inFull = full.commands.find((c) => c.name() === name)!;
        expect(built.helpInformation()).toBe(inFull.helpInformation());
        for (const verb of inFull.commands) {
          expect(built.commands.find((c) => c.name() === verb.name())!.helpInformation(), `${name} ${verb.name()}`).toBe(verb.helpInformation());
        }
      }
    }
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
