/**
 * Shared plumbing for command files: turning commander actions into handlers
 * that receive a Context, help examples, and small flag parsers. Command files
 * import only this and types at start-up; the work they do is loaded lazily.
 */
import { InvalidArgumentError, Option, type Argument, type Command } from 'commander';
import type { Context } from '../context.js';

/** A handler may return an exit code (e.g. 10 for a partly failed batch). */
export type Handler = (ctx: Context, ...args: any[]) => Promise<number | void>;

/** Wraps a handler for commander: (ctx, ...positionals, options). */
export type Act = (handler: Handler) => (...args: unknown[]) => Promise<void>;

const EXAMPLES = new WeakMap<Command, string[]>();

/** Adds an "Examples:" block to --help; the help test walks the tree and requires one per command. */
export function examples(cmd: Command, lines: string[]): Command {
  EXAMPLES.set(cmd, lines);
  cmd.addHelpText('after', '\nExamples:\n' + lines.map((l) => `  ${l}`).join('\n'));
  return cmd;
}

export function examplesOf(cmd: Command): string[] | undefined {
  return EXAMPLES.get(cmd);
}

/** Values a flag accepts, recorded for shell completion and checked at parse time. */
const CHOICES = new WeakMap<object, readonly string[]>();
export function choices(values: readonly string[]) {
  const parse = (value: string) => {
    if (!values.includes(value)) {
      throw new InvalidArgumentError(`Allowed: ${values.join(', ')}.`);
    }
    return value;
  };
  CHOICES.set(parse, values);
  return parse;
}
export function choicesOf(parser: unknown): readonly string[] | undefined {
  return parser ? CHOICES.get(parser as object) : undefined;
}

/**
 * Values completion asks msgctl for when TAB is pressed (`msgctl __complete
 * KIND`): profile names from the config file; ids of campaigns, conversations
 * and imports from the service (or, for imports, which the API cannot list,
 * from those this machine created), with a short timeout.
 */
export type DynamicValues = 'profiles' | 'campaigns' | 'conversations' | 'imports';
export const DYNAMIC_VALUES: readonly DynamicValues[] = ['profiles', 'campaigns', 'conversations', 'imports'];

const DYNAMIC = new WeakMap<Option | Argument, DynamicValues>();
export function completeWith<T extends Option | Argument>(target: T, kind: DynamicValues): T {
  DYNAMIC.set(target, kind);
  return target;
}
export function dynamicValuesOf(target: Option | Argument): DynamicValues | undefined {
  return DYNAMIC.get(target);
}

/** What a positional argument is, for help (`Arguments:`), the reference and completion. */
export type ArgumentSpec = string | readonly [description: string, completion: DynamicValues];

/** The positional arguments most commands take, described once. */
export const ARGS = {
  patientId: 'patient id (a UUID: `msgctl patients list --phone …` finds it)',
  campaignId: ['campaign id (a UUID: `msgctl campaigns list` shows them)', 'campaigns'],
  conversationId: ['patient conversation id (a UUID: `msgctl conversations list` shows them)', 'conversations'],
  messageId: 'message id (a UUID: `msgctl messages list` shows them)',
  importId: ['import id (imp_…, as `msgctl imports create` printed it)', 'imports'],
} as const satisfies Record<string, ArgumentSpec>;

/**
 * Gives the arguments of `.command('get <id>')` a description (commander
 * leaves them bare, and help then shows no "Arguments:" section), by name.
 */
export function describeArguments(cmd: Command, specs: Record<string, ArgumentSpec>): Command {
  for (const arg of cmd.registeredArguments) {
    const spec = specs[arg.name()];
    if (spec === undefined) continue;
    if (typeof spec === 'string') arg.description = spec;
    else {
      arg.description = spec[0];
      completeWith(arg, spec[1]);
    }
  }
  return cmd;
}

/**
 * A number as a person writes one: decimal digits, maybe a fraction (`2.5`, `.5`); NaN for anything
 * else. Number() alone also takes `0x10`, `0b11`, `1e1`, `Infinity` and an empty string (0):
 * `--limit 0x10` printed 16 records.
 */
export function decimal(value: string): number {
  return /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;
}

export function positiveInt(value: string): number {
  const n = decimal(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('Must be a whole number ≥ 1.');
  return n;
}

export function positiveNumber(value: string): number {
  const n = decimal(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('Must be a number > 0.');
  return n;
}

/** --port: a whole number from 0 (any free port) to 65535; one parser for sandbox, login and events listen. */
export function portNumber(value: string): number {
  const n = decimal(value);
  if (!Number.isInteger(n) || n > 65535) throw new InvalidArgumentError('Must be a port number from 0 to 65535.');
  return n;
}

/** --timeout: above 0, at most a day (timers cannot hold more than ~24 days anyway). */
export function timeoutSeconds(value: string): number {
  const n = positiveNumber(value);
  if (n > 86_400) throw new InvalidArgumentError('Must be at most 86400 seconds (a day).');
  return n;
}

/** --retries: a whole number from 0 to 20. */
export function retryCount(value: string): number {
  const n = decimal(value);
  if (!Number.isInteger(n) || n < 0 || n > 20) throw new InvalidArgumentError('Must be a whole number from 0 to 20.');
  return n;
}

export function nonNegativeNumber(value: string): number {
  const n = decimal(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('Must be a number ≥ 0.');
  return n;
}

/**
 * --day-first / --month-first, declared once for every command that reads
 * numeric dates (util/date-order.ts says how they combine with the profile).
 */
export function dayFirstOption(): Option {
  return new Option('--day-first', 'read numeric dates such as 03/02/1969 as day/month/year (3 February)');
}
export function monthFirstOption(): Option {
  return new Option('--month-first', 'read numeric dates such as 03/02/1969 as month/day/year (2 March)');
}

/** For repeatable flags: `--patient a --patient b`. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** What every list command prints without --all. */
export const DEFAULT_LIST_LIMIT = 50;

/** --limit/--all, declared here once for every list command (each says what it lists). */
export interface ListFlags {
  limit: number;
  all?: boolean;
}

export function limitOption(help: string): Option {
  return new Option('--limit <n>', help).argParser(positiveInt).default(DEFAULT_LIST_LIMIT);
}

export function allOption(help: string): Option {
  return new Option('--all', help);
}

/**
 * --wide, declared here once for every command that prints a table. Tables fit
 * the terminal by leaving out low-value columns; this shows them all. Read
 * into GlobalOptions.wide (global-options.ts) for the Output.
 */
export function wideOption(): Option {
  return new Option('--wide', 'on a terminal, show every column even if the table gets wider than the window');
}

/** The record limit to pass to paginate(): none with --all. */
export function listLimit(flags: ListFlags): number | undefined {
  return flags.all ? undefined : flags.limit;
}

/** The JSON fields of what a command prints, for checking `--json FIELDS` before anything is sent. */
const JSON_FIELDS = new WeakMap<Command, readonly string[]>();

/** `--template` stored as `formatTemplate`: `send --template` (the message template) keeps its own name. */
class FormatTemplateOption extends Option {
  override attributeName(): string {
    return 'formatTemplate';
  }
}

/**
 * --jq and --template, as gh has them, on a command that prints API objects;
 * `fields` are the object's top-level fields, which `--json FIELDS`,
 * `--template` and the error for an unknown field name (exit 2) use. Without
 * `fields` (msgctl api), names are checked against what the service sent.
 */
export function formatOptions(cmd: Command, fields?: readonly string[]): Command {
  if (fields) JSON_FIELDS.set(cmd, fields);
  // A record view leaves out empty fields; --wide shows them (a list's --wide shows every column).
  if (!cmd.options.some((o) => o.long === '--wide')) cmd.addOption(wideOption());
  cmd.addOption(new Option('--jq <expression>', 'filter each JSON record with jq (built in, no jq install needed); strings print raw'));
  cmd.addOption(new FormatTemplateOption('--template <text>', 'print each record through a Mustache template, e.g. "{{id}}\\t{{name}}" (msgctl help formatting)'));
  return cmd;
}

export function jsonFieldsOf(cmd: Command): readonly string[] | undefined {
  return JSON_FIELDS.get(cmd);
}
