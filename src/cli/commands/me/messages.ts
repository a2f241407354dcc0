/** `msgctl me messages`: your conversations and team chats, oldest first (GET /me/messages); marks nothing read. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { allOption, wideOption, choices, examples, limitOption, listLimit, type Act, type ListFlags, formatOptions } from '../kit.js';
import { MESSAGE_COLUMNS } from './common.js';
import { TIME_HELP } from '../messages/list.js';
import { MESSAGE } from '../../api/shapes.js';

export interface MeMessagesOptions extends ListFlags {
  after?: string;
  groupBy?: 'conversation';
}

export async function run(ctx: Context, opts: MeMessagesOptions): Promise<void> {
  // The same forms as messages list's --after (7d, yesterday, a date, an instant), checked before sending.
  const { parseTimeFlag } = await import('../../messages/time-flags.js');
  const after = opts.after === undefined ? undefined : parseTimeFlag('--after', opts.after);
  const client = await ctx.client();
  const rows = client.paginate('/me/messages', { after, group_by: opts.groupBy }, { limit: listLimit(opts), signal: ctx.signal, shape: MESSAGE });
  const { byConversation, messageColumns } = await import('../../messages/message-columns.js');
  await ctx.out.list(rows, messageColumns(ctx.out.mode, MESSAGE_COLUMNS), { empty: 'No messages.', noun: 'messages', groupedBy: opts.groupBy === 'conversation' ? byConversation : undefined });
}

/** Returns the `me messages` command, which `me messages get` hangs under. */
export function register(me: Command, act: Act, runF: typeof run = run): Command {
  const messages = me
    .command('messages')
    .description('Messages in your patient conversations and team chats, oldest first (GET /me/messages); marks nothing read')
    .option('--after <time>', `only messages at or after this time: ${TIME_HELP}`)
    .option('--group-by <how>', 'conversation: each chat\'s messages together, most recently active chat first', choices(['conversation']))
    .addOption(limitOption('print at most this many'))
    .addOption(allOption('print every message (all pages)'))
    .addOption(wideOption())
    .action(act((ctx, flags: MeMessagesOptions) => runF(ctx, flags)));
  formatOptions(messages, FIELDS.message);
  examples(messages, [
    'msgctl me messages --after 2026-11-01',
    'msgctl me messages --group-by conversation --all --json | jq -r .body',
  ]);
  return messages;
}
