/** `msgctl api <method> <path>`: an authenticated request to any endpoint; the request building is src/cli/api-command. */
import { Argument, InvalidArgumentError, type Command } from 'commander';
import type { ApiFlags } from '../../api-command/run.js';
import type { Context } from '../../context.js';
import { fieldParser } from '../../api-command/fields.js';
import { HTTP_METHODS } from '../../api-command/request-parts.js';
import { collect, examples, type Act, formatOptions } from '../kit.js';

/** Any case on the command line; the request goes out upper-case. */
function httpMethod(value: string): string {
  const upper = value.toUpperCase();
  if (!(HTTP_METHODS as readonly string[]).includes(upper)) {
    throw new InvalidArgumentError(`Allowed: ${HTTP_METHODS.join(', ')}.`);
  }
  return upper;
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };

/** `--max-body`: bytes, or with a unit (`64M`, `1GiB`, `512k`: powers of 1024). */
export function parseByteSize(value: string): number {
  const match = /^\s*(\d+)\s*([kmg]?)(?:i?b)?\s*$/i.exec(value);
  const bytes = match ? Number(match[1]) * SIZE_UNITS[match[2]!.toLowerCase()]! : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new InvalidArgumentError('Give a size such as 64M, 1GiB or 1048576 (bytes).');
  return bytes;
}

export interface ApiOptions extends ApiFlags {
  /** Upper case (the parser makes it so). */
  method: string;
  path: string;
}

export async function run(ctx: Context, opts: ApiOptions): Promise<void> {
  const { runApiCommand } = await import('../../api-command/run.js');
  await runApiCommand(ctx, opts.method, opts.path, opts);
}

export function registerApi(program: Command, act: Act, runF: typeof run = run): void {
  const api = program
    .command('api')
    .description('Make an authenticated request to any API endpoint and print the response (like `gh api`)')
    // argChoices lists the methods in --help and for shell completion; the parser also accepts lower case.
    .addArgument(new Argument('<method>', 'HTTP method').choices(HTTP_METHODS).argParser(httpMethod))
    .addArgument(new Argument('<path>', 'path under the base URL, e.g. /patients or "patients?mrn=A-1001"'))
    .option(
      '-F, --field <key=value>',
      'parameter with a typed value: numbers, true, false, null; @FILE reads a file, @- stdin; to[phone]=… nests, tags[]=… appends (query parameter for GET, JSON body otherwise)',
      fieldParser(false),
    )
    .option('-f, --raw-field <key=value>', 'like --field, but the value is always a string', fieldParser(true))
    .option('-H, --header <name:value>', 'extra request header (repeatable; Idempotency-Key replaces the generated one)', collect)
    .option('--input <file>', 'read the whole JSON request body from a file (- for stdin) instead of fields')
    .option('--paginate', 'GET every page of a list, following pagination.next_cursor, and print each record as a JSON line')
    .option('-i, --include', 'print the HTTP status line and response headers (each page\'s with --paginate) before the body')
    .option('--max-body <size>', 'read a response body of up to this size (default 32MiB; e.g. 512M, 2GiB): more is refused, not read', parseByteSize)
    .action(act((ctx, method: string, path: string, flags: ApiFlags) => runF(ctx, { ...flags, method, path })));
  api.addHelpText(
    'after',
    `
A POST gets a fresh Idempotency-Key unless one is given with --header. Errors
print the problem on stderr (one JSON line with --json) and exit with the usual
codes (3 auth, 4 not found, 5 conflict, 6 validation, 7 rate limited, 8 unavailable).`,
  );
  formatOptions(api);
  examples(api, [
    'msgctl api GET /organization',
    "msgctl api GET /patients -F 'page[limit]=100' --paginate > patients.jsonl",
    'msgctl api GET "/patient-messages?after=2026-11-01" -i',
    `msgctl api POST /patient-messages -f 'to[phone]=+15555550123' -f body="Your results are ready" -f channel=sms`,
    'msgctl api PATCH /patients/3f0c2a4e-… -F date_of_birth=null',
    'jq -n \'{first_name:"Ada",last_name:"Lovelace",phone:"+15555550142"}\' | msgctl api POST /patients --input -',
    "msgctl api GET /patients -F 'page[limit]=100' --max-body 256M > page.json",
  ]);
}
