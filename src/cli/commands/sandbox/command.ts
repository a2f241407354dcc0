/** `msgctl sandbox`: flags and wiring; the command's work is run.ts, which starts src/sandbox through its entry. */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { decimal, examples, nonNegativeNumber, portNumber, positiveInt, type Act } from '../kit.js';
import { UsageError } from '../../errors.js';
import type { SandboxFlags } from './run.js';
import type { Context } from '../../context.js';
import * as reply from './reply.js';
import { registerSandboxFaults } from './faults/index.js';


function wholeNumber(value: string): number {
  const n = decimal(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('Must be a whole number ≥ 0.');
  return n;
}

/** --seed-messages: a million at most (most of a minute and ~2.5 GB); more only ran the machine out of memory. */
function seedCount(value: string): number {
  const n = positiveInt(value);
  if (n > 1_000_000) throw new InvalidArgumentError('Must be at most 1000000.');
  return n;
}

export type SandboxOptions = SandboxFlags;

/** The options msgctl itself takes (--json, --profile…), as a command's help shows them inherited. */
function rootOptionsOnly(cmd: Command) {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root === cmd ? [] : root.options.filter((option) => !option.hidden);
}

/** Runs the sandbox until Ctrl-C; the work is in run.ts (loaded only now), the server in src/sandbox. */
export async function run(ctx: Context, opts: SandboxOptions): Promise<number> {
  const { runSandboxCommand } = await import('./run.js');
  return runSandboxCommand(ctx, opts);
}

export function registerSandbox(program: Command, act: Act, runF: typeof run = run): void {
  const sandbox = program
    .command('sandbox')
    .description('Run a local implementation of the Messaging Service API on 127.0.0.1 (seeded org, keys, patients)')
    .option('--port <n>', 'port to listen on (0 picks a free one)', portNumber, 4010)
    .option('--data <file>', 'keep state in this SQLite database file across restarts (each write is on disk before it is answered; open it with the sqlite3 shell)')
    .option('--seed <n>', 'seed for generated ids and keys, so runs are reproducible', wholeNumber, 1)
    .option('--chaos <spec>', 'fault injection, e.g. "429=0.1,500=0.05,503=0.05,reset=0.05,delay=0.1:300"')
    .option('--rate-limit <n>', 'requests per second per credential before 429 (0: no limit)', nonNegativeNumber, 100)
    .option('--time-scale <x>', 'multiply every background delay (0.01 runs campaigns 100x faster)', nonNegativeNumber, 1)
    .option('--write-profile', 'write a "sandbox" profile (base URL + API key) so `msgctl --profile sandbox …` works')
    .option('--seed-messages <n>', 'load this many synthetic messages, at most 1000000 (for tests and benchmarks)', seedCount)
    .action(act((ctx, flags: SandboxOptions) => runF(ctx, flags)));
  examples(sandbox, [
    'msgctl sandbox --write-profile',
    'msgctl sandbox --port 0 --json            # prints {"base_url":…,"api_key":…} on one line',
    'msgctl sandbox --data ./sandbox.db --chaos "503=0.2,reset=0.05" --time-scale 0.01',
    'msgctl sandbox reply --from "(555) 555-0123" "Thanks!"   # in another terminal, against the running one',
  ]);
  // Subcommands drive a sandbox that is already running (found through the "sandbox" profile or --base-url).
  // The server's own flags (--port, --data…) are not theirs: commander would read them anywhere on the
  // line and drop them, so a subcommand given one refuses it, and its help lists only msgctl's own.
  sandbox.configureHelp({ ...sandbox.configureHelp(), visibleGlobalOptions: rootOptionsOnly });
  sandbox.hook('preAction', (server, action) => {
    if (action === server) return;
    const given = server.options.filter((option) => server.getOptionValueSource(option.attributeName()) === 'cli');
    if (given.length) {
      throw new UsageError(`${given.map((o) => o.long).join(', ')} ${given.length === 1 ? 'is an option' : 'are options'} of \`msgctl sandbox\` (starting one), not of \`${action.name()}\`.`, [
        `Run \`msgctl sandbox ${action.parent === server ? '' : `${action.parent?.name()} `}${action.name()} --help\` for what it takes.`,
      ]);
    }
  });
  reply.register(sandbox, act);
  registerSandboxFaults(sandbox, act);
}
