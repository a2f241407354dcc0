/**
 * The options every command takes, declared once: program.ts adds them to the
 * root, cli.ts reads them back into the Context's GlobalOptions and needs to
 * know which take a value (so `msgctl --profile send …` finds the command).
 */
import { Option, type Command } from 'commander';
import type { ColorMode, GlobalOptions } from '../context.js';
import { choices, completeWith, retryCount, timeoutSeconds } from './kit.js';

export function globalOptions(): Option[] {
  return [
    completeWith(new Option('--profile <name>', 'configuration profile to use (env MSGCTL_PROFILE)'), 'profiles'),
    new Option('--base-url <url>', 'API base URL including /v1 (env MSGCTL_BASE_URL)'),
    new Option('--json [fields]', 'print JSON Lines on stdout: one API object per line; with a comma list (--json id,name), only those fields'),
    new Option('-o, --output <file>', 'write what the command prints to FILE as UTF-8 (- for stdout), replacing it only when the command succeeds'),
    new Option('--verbose', 'log each request (method, path, status, duration, request id) on stderr'),
    new Option('--quiet', 'print nothing but results and errors'),
    new Option('--color <when>', 'colour: auto (a terminal without NO_COLOR), always or never').argParser(choices(['auto', 'always', 'never'])),
    new Option('--no-color', 'disable colour (same as --color never; also honours NO_COLOR)'),
    new Option('--no-pager', 'never page long terminal output through MSGCTL_PAGER, PAGER or less'),
    new Option('--plain', 'on a terminal, no tables, bars or colour: records as "label: value" lines (screen readers; env MSGCTL_PLAIN=1)'),
    new Option('--timeout <seconds>', 'give up on one request attempt after this long').argParser(timeoutSeconds).default(30),
    new Option('--retries <n>', 'retries after 429, 5xx or connection failures').argParser(retryCount).default(4),
  ];
}

/** Global options that take a value (long and short names): the word after them is not a command name. */
export const GLOBAL_OPTIONS_WITH_VALUES: ReadonlySet<string> = new Set(
  globalOptions()
    // --json [fields] takes a value only when one follows that reads as fields (cli.ts), never a command word.
    .filter((o) => o.required)
    .flatMap((o) => [o.long!, ...(o.short ? [o.short] : [])]),
);

/** The global options as given to (or defaulted for) the command being run. */
export function readGlobalOptions(command: Command): GlobalOptions {
  const globals = command.optsWithGlobals() as Record<string, unknown>;
  const json = globals.json;
  const color = globals.color;
  const format = formatFlags(command, globals);
  return {
    profile: globals.profile as string | undefined,
    baseUrl: globals.baseUrl as string | undefined,
    json: (json !== undefined && json !== false) || format.jq !== undefined || format.template !== undefined,
    jsonFlag: json !== undefined && json !== false,
    jsonFields: typeof json === 'string' && json !== '' ? json : undefined,
    verbose: Boolean(globals.verbose),
    quiet: Boolean(globals.quiet),
    color: color !== false && color !== 'never',
    colorMode: color === false ? 'never' : typeof color === 'string' ? (color as ColorMode) : undefined,
    pager: globals.pager !== false,
    plain: Boolean(globals.plain),
    output: typeof globals.output === 'string' && globals.output !== '-' ? globals.output : undefined,
    timeout: Number(globals.timeout ?? 30),
    retries: Number(globals.retries ?? 4),
    wide: Boolean(globals.wide),
    retriesGiven: command.getOptionValueSourceWithGlobals('retries') === 'cli',
    ...format,
  };
}

/**
 * --jq and --template, read only from commands that declared them with
 * formatOptions() (kit.ts): `send --template` is the message template.
 */
function formatFlags(command: Command, globals: Record<string, unknown>): Pick<GlobalOptions, 'jq' | 'template'> {
  if (!command.options.some((o) => o.long === '--jq')) return {};
  return { jq: globals.jq as string | undefined, template: globals.formatTemplate as string | undefined };
}
