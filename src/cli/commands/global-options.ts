/**
 * The options every command takes, declared once: program.ts adds them to the
 * root, cli.ts reads them back into the Context's GlobalOptions and needs to
 * know which take a value (so `msgctl --profile send …` finds the command).
 */
import { Option, type Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { completeWith, retryCount, timeoutSeconds } from './kit.js';

export function globalOptions(): Option[] {
  return [
    completeWith(new Option('--profile <name>', 'configuration profile to use (env MSGCTL_PROFILE)'), 'profiles'),
    new Option('--base-url <url>', 'API base URL including /v1 (env MSGCTL_BASE_URL)'),
    new Option('--json', 'print JSON Lines on stdout: one API object per line'),
    new Option('--verbose', 'log each request (method, path, status, duration, request id) on stderr'),
    new Option('--quiet', 'print nothing but results and errors'),
    new Option('--no-color', 'disable colour (also honours NO_COLOR)'),
    new Option('--timeout <seconds>', 'give up on one request attempt after this long').argParser(timeoutSeconds).default(30),
    new Option('--retries <n>', 'retries after 429, 5xx or connection failures').argParser(retryCount).default(4),
  ];
}

/** Global options that take a value: the word after them is not a command name. */
export const GLOBAL_OPTIONS_WITH_VALUES: ReadonlySet<string> = new Set(
  globalOptions()
    .filter((o) => o.required || o.optional)
    .map((o) => o.long!),
);

/** The global options as given to (or defaulted for) the command being run. */
export function readGlobalOptions(command: Command): GlobalOptions {
  const globals = command.optsWithGlobals() as Record<string, unknown>;
  return {
    profile: globals.profile as string | undefined,
    baseUrl: globals.baseUrl as string | undefined,
    json: Boolean(globals.json),
    verbose: Boolean(globals.verbose),
    quiet: Boolean(globals.quiet),
    color: globals.color !== false,
    timeout: Number(globals.timeout ?? 30),
    retries: Number(globals.retries ?? 4),
    wide: Boolean(globals.wide),
    retriesGiven: command.getOptionValueSourceWithGlobals('retries') === 'cli',
  };
}
