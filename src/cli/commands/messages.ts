/**
 * `msgctl messages …`: reading patient traffic. Other files add subcommands
 * (replies, reactions) by passing registrars to registerMessages, or by
 * taking the returned Command.
 */
import type { Command } from 'commander';
import { choices, examples, nonNegativeNumber, positiveInt, type Act } from './kit.js';
import type { MessageListFlags } from '../messages/message-list.js';

/** Adds subcommands to a command group; lets other files extend `messages` and `conversations`. */
export type Subcommands = (parent: Command, act: Act) => void;

const TIME_HELP = 'RFC 3339 time, YYYY-MM-DD (midnight in the organization\'s time zone), today, yesterday, or an age like 24h, 7d';

export function registerMessages(program: Command, act: Act, ...more: Subcommands[]): Command {
  const messages = program.command('messages').description('Read messages in patient conversations');
  examples(messages, [
    'msgctl messages list --after yesterday',
    'msgctl messages list --after 2026-11-01 --all --json | jq -r .body',
    'msgctl messages list --after 1h --follow',
  ]);

  const list = messages
    .command('list')
    .description('List messages across patient conversations, newest first (GET /patient-messages)')
    .option('--after <time>', `messages at or after this time: ${TIME_HELP}`)
    .option('--before <time>', 'messages before this time (same forms as --after)')
    .option('--group-by <how>', 'message: one by one; conversation: each conversation\'s messages together', choices(['message', 'conversation']))
    .option('--order <order>', 'desc (newest first, default) or asc', choices(['desc', 'asc']))
    .option('--patient <id>', 'only conversations with this patient (on any number)')
    .option('--conversation <id>', 'only this conversation')
    .option('-q, --query <query>', 'search: words, "phrases", from:, patient:, mrn:, phone:, is:unread, is:failed, -, OR (docs/search-language.md)')
    .option('--limit <n>', 'print at most this many messages', positiveInt, 50)
    .option('--all', 'print every message in range, following all pages')
    .option('-f, --follow', 'after the list, keep printing new messages as they arrive, until Ctrl-C')
    .option('--interval <seconds>', 'with --follow: how often to ask for new messages', nonNegativeNumber, 2)
    .action(
      act(async (ctx, flags: Omit<MessageListFlags, 'q'> & { query?: string }) => {
        const { listMessages } = await import('../messages/message-list.js');
        return listMessages(ctx, { ...flags, q: flags.query });
      }),
    );
  examples(list, [
    'msgctl messages list --after today',
    'msgctl messages list --after 7d -q "from:patient is:unread"',
    'msgctl messages list --patient "$PATIENT_ID" --group-by conversation --order asc',
    'msgctl messages list --after 2026-11-01 --before 2026-12-01 --all --json > november.jsonl',
    'msgctl messages list --after 24h --follow --json | jq -r .body',
  ]);

  const get = messages
    .command('get <id>')
    .description('Show one message with its delivery status (GET /patient-messages/{id})')
    .action(
      act(async (ctx, id: string) => {
        const { getMessage } = await import('../messages/message-get.js');
        await getMessage(ctx, id);
      }),
    );
  examples(get, ['msgctl messages get "$MESSAGE_ID"', 'msgctl messages get "$MESSAGE_ID" --json | jq .delivery']);

  for (const register of more) register(messages, act);
  return messages;
}
