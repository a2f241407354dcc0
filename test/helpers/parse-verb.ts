/**
 * Flag parsing apart from the work (gh's `NewCmdX(f, runF)` seam): a verb module's `register`
 * takes the function it runs as its last argument (`runF`, `run` by default). Given one that
 * records what it is called with, commander parses a command line into the verb's options
 * with no context, no sandbox and no process: what reached `run` is what the flags said.
 */
import { Command, CommanderError } from 'commander';
import type { Act } from '../../src/cli/commands/kit.js';
import type { Context } from '../../src/cli/context.js';

// Promise<any>: a verb's run may resolve to an exit code; the recorder resolves to nothing.
type RunF<O> = (ctx: Context, opts: O) => Promise<any>;
type Register<O> = (parent: Command, act: Act, runF: RunF<O>) => unknown;

/** What a parse came to: the options `run` got, or commander's refusal (its code and message). */
export type Parsed<O> = { opts: O; error?: undefined } | { opts?: undefined; error: { code: string; message: string } };

/** No context: a handler that reaches for it before `runF` fails the test loudly. */
const NO_CONTEXT = new Proxy({}, { get: (_, key) => { throw new Error(`the handler used ctx.${String(key)} before run`); } }) as Context;

/** Parses `argv` (the words after the parent's name, e.g. ['list', '--mrn', 'A-1']) for one verb. */
export async function parseVerb<O>(register: Register<O>, argv: string[], parentName = 'msgctl'): Promise<Parsed<O>> {
  const parent = new Command(parentName);
  const calls: O[] = [];
  const act: Act = (handler) => async (...args: unknown[]) => {
    await handler(NO_CONTEXT, ...args.slice(0, -1));
  };
  register(parent, act, async (_ctx, opts) => {
    calls.push(opts);
  });
  for (const command of [parent, ...parent.commands]) {
    command.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  }
  try {
    await parent.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return { error: { code: err.code, message: err.message } };
    throw err;
  }
  if (calls.length !== 1) throw new Error(`run was called ${calls.length} times for ${argv.join(' ')}`);
  return { opts: calls[0]! };
}
