/**
 * What shell completion needs from the commander tree, read from the tree
 * itself (never a hand-kept list) so completion cannot drift from the CLI:
 * commands and their descriptions, flags, which flags take a value, the
 * fixed values of flags and arguments (kit `choices()` or commander choices),
 * and the values only msgctl knows at TAB time (kit `completeWith()`: profile
 * names, ids of campaigns, conversations and imports), which the scripts ask
 * `msgctl __complete KIND` for.
 */
import type { Argument, Command, Option } from 'commander';
import { choicesOf, dynamicValuesOf, type DynamicValues } from '../commands/kit.js';

export interface FlagSpec {
  /** Long and short spellings, e.g. ['--yes', '-y']. */
  names: string[];
  description: string;
  /** The next word is this flag's value (`--channel <channel>`). */
  takesValue: boolean;
  /** Fixed values the flag accepts; empty when any value goes. */
  values: readonly string[];
  /** Values to ask msgctl for at TAB time (`msgctl __complete KIND`), e.g. profile names. */
  dynamic?: DynamicValues;
}

export interface CommandSpec {
  /** Words from the program name down, e.g. ['msgctl', 'patients', 'list']. */
  path: string[];
  description: string;
  subcommands: CommandSpec[];
  /** This command's flags followed by the global ones that apply to it. */
  flags: FlagSpec[];
  /** Only this command's own flags (with its --help). */
  ownFlags: FlagSpec[];
  /** The global flags, accepted by every command (the same list everywhere). */
  globalFlags: FlagSpec[];
  /** Fixed values per positional argument (empty array: free text). */
  argValues: (readonly string[])[];
  /** Per positional argument, values to ask msgctl for at TAB time (ids of campaigns…). */
  argDynamic: (DynamicValues | undefined)[];
}

export function completionTree(program: Command): CommandSpec {
  const globals = visibleOptions(program)
    .filter((o) => !isVersionOrHelp(o))
    .map(flagSpec);
  return describe(program, [program.name()], globals, true);
}

function describe(cmd: Command, path: string[], globals: FlagSpec[], isRoot: boolean): CommandSpec {
  const own = visibleOptions(cmd)
    .filter((o) => !isRoot || isVersionOrHelp(o))
    .map(flagSpec);
  return {
    path,
    description: cmd.description(),
    subcommands: visibleSubcommands(cmd).map((sub) => describe(sub, [...path, sub.name()], globals, false)),
    flags: [...own, ...globals],
    ownFlags: own,
    globalFlags: globals,
    argValues: cmd.registeredArguments.map(argValues),
    argDynamic: cmd.registeredArguments.map((arg) => dynamicValuesOf(arg)),
  };
}

/** Every command in the tree, parents before children. */
export function* walk(spec: CommandSpec): Generator<CommandSpec> {
  yield spec;
  for (const sub of spec.subcommands) yield* walk(sub);
}

/** Commands shown in help; the implicit `help` command is left out (it is not in `commands`). */
function visibleSubcommands(cmd: Command): Command[] {
  return cmd.createHelp().visibleCommands(cmd).filter((sub) => cmd.commands.includes(sub));
}

function visibleOptions(cmd: Command): Option[] {
  return cmd.createHelp().visibleOptions(cmd);
}

/** Root-only flags: every subcommand has its own --help, and --version means nothing there. */
function isVersionOrHelp(option: Option): boolean {
  return option.long === '--version' || option.long === '--help';
}

function flagSpec(option: Option): FlagSpec {
  return {
    names: [option.long, option.short].filter((n): n is string => Boolean(n)),
    description: option.description,
    takesValue: option.required,
    values: choicesOf(option.parseArg) ?? option.argChoices ?? [],
    dynamic: dynamicValuesOf(option),
  };
}

function argValues(arg: Argument): readonly string[] {
  return choicesOf(arg.parseArg) ?? arg.argChoices ?? [];
}
