/** `msgctl messages list`: across patient conversations, newest first (GET /patient-messages); logic in src/cli/messages. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { MessageListFlags } from '../../messages/message-list.js';
import { allOption, wideOption, choices, examples, limitOption, nonNegativeNumber, type Act, formatOptions } from '../kit.js';

export type MessagesListOptions = MessageListFlags;

/** What --after and --before take (messages/time-flags.ts reads them); `me messages --after` too. */
export const TIME_HELP = 'RFC 3339 time, YYYY-MM-DD (midnight in the organization\'s time zone), today, yesterday, now, or an age like 24h, 7d';

export async function run(ctx: Context, opts: MessagesListOptions): Promise<number | void> {
  const { listMessages } = await import('../../messages/message-list.js');
  return listMessages(ctx, opts);
}

export function register(messages: Command, act: Act, runF: typeof run = run): void {
  const list = messages
    .command('list')
    .description('List messages across patient conversations, newest first; with --follow, oldest first as new ones arrive (GET /patient-messages)')
    .option('--after <time>', `messages at or after this time: ${TIME_HELP}`)
    .option('--before <time>', 'messages before this time (same forms as --after)')
    .option('--group-by <how>', 'message: one by one; conversation: each conversation\'s messages together', choices(['message', 'conversation']))
    .option('--order <order>', 'desc (newest first; the default without --follow) or asc (oldest first; the default with it)', choices(['desc', 'asc']))
    .option('--patient <id>', 'only conversations with this patient (on any number)')
    .option('--conversation <id>', 'only this conversation')
    .option('-q, --query <query>', 'search: words, "phrases", from:, patient:, mrn:, phone:, is:unread, is:failed, -, OR (docs/search-language.md)')
    .addOption(limitOption('print at most this many messages'))
    .addOption(allOption('print every message in range, following all pages'))
    .addOption(wideOption())
    .option('-f, --follow', 'after the list, keep printing new messages as they arrive, until Ctrl-C')
    .option('--interval <seconds>', 'with --follow: how often to ask for new messages', nonNegativeNumber, 2)
    // -q/--query is `q` in the API and in the options.
    .action(act((ctx, flags: Omit<MessageListFlags, 'q'> & { query?: string }) => runF(ctx, { ...flags, q: flags.query })));
  formatOptions(list, FIELDS.message);
  examples(list, [
    'msgctl messages list --after today',
    'msgctl messages list --after 7d -q "from:patient is:unread"',
    'msgctl messages list --patient "$PATIENT_ID" --group-by conversation --order asc',
    'msgctl messages list --after 2026-11-01 --before 2026-12-01 --all --json > november.jsonl',
    'msgctl messages list --after 24h --follow --json | jq -r .body',
  ]);
}
