/**
 * `msgctl help [TOPIC | COMMAND…]`: a topic (help/topics/), a command's help,
 * or the root help; anything else is exit 2 saying so, with what there is.
 * It replaces commander's implicit root `help` command (program.ts).
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { examples, type Act } from '../kit.js';

/** The topics, for the root help and this command's own; help/registry.ts has their text (a test holds the two equal). */
export const TOPIC_NAMES = ['environment', 'exit-codes', 'formatting', 'dates'] as const;

export interface HelpOptions {
  words: string[];
  /** The whole command tree, to find a command's help in. */
  program: Command;
}

export async function run(ctx: Context, opts: HelpOptions): Promise<void> {
  const [first, ...rest] = opts.words;
  if (first === undefined) return void opts.program.outputHelp();
  const { findTopic, TOPICS } = await import('../../help/registry.js');
  const topic = rest.length === 0 ? findTopic(first) : undefined;
  if (topic) {
    const [{ renderHelp }, { helpLayout }] = await Promise.all([import('../../help/render.js'), import('../../help/layout.js')]);
    await ctx.out.write(renderHelp(topic.text, helpLayout(ctx.io.stdout)));
    return;
  }
  const command = findCommand(opts.program, opts.words);
  if (command) return void command.outputHelp();
  const visible = opts.program.commands.filter((c) => !c.name().startsWith('_') && c.name() !== 'help').map((c) => c.name());
  throw new UsageError(`unknown help topic "${opts.words.join(' ')}": it is neither a topic nor a command.`, [
    `Topics: ${TOPICS.map((t) => `${t.name} (${t.summary})`).join('; ')}.`,
    `Commands: ${visible.join(', ')} (msgctl help patients list, or msgctl patients list --help).`,
  ]);
}

function findCommand(program: Command, words: readonly string[]): Command | undefined {
  let command: Command | undefined = program;
  for (const word of words) {
    command = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!command || command.name().startsWith('_')) return undefined;
  }
  return command;
}

export function registerHelp(program: Command, act: Act, runF: typeof run = run): void {
  const help = program
    .command('help')
    .description(`Show help for a command, or a topic: ${TOPIC_NAMES.join(', ')}`)
    .addArgument(new Argument('[topic...]', `a topic (${TOPIC_NAMES.join(', ')}) or a command's words (patients list)`))
    .action(act((ctx, words: string[]) => runF(ctx, { words, program })));
  examples(help, ['msgctl help environment      # every variable msgctl reads, MSGCTL_API_KEY for cron first', 'msgctl help exit-codes', 'msgctl help patients list']);
}
