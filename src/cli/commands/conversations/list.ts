/** `msgctl conversations list`: most recently active first (GET /patient-conversations); logic in src/cli/messages. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { ConversationListFlags } from '../../messages/conversation-list.js';
import { allOption, wideOption, choices, examples, limitOption, type Act, formatOptions } from '../kit.js';

export type ConversationsListOptions = ConversationListFlags;

export async function run(ctx: Context, opts: ConversationsListOptions): Promise<void> {
  const { listConversations } = await import('../../messages/conversation-list.js');
  await listConversations(ctx, opts);
}

export function register(conversations: Command, act: Act, runF: typeof run = run): void {
  const list = conversations
    .command('list')
    .description('List patient conversations, most recently active first (GET /patient-conversations)')
    .option('--patient <id>', 'only this patient\'s conversations')
    .option('--phone-number <number>', 'only conversations on this clinic number (any common format)')
    .option('--channel <channel>', 'only secure or only sms conversations', choices(['secure', 'sms']))
    .option('--unread', 'only conversations with unread patient messages')
    .option('--order <order>', 'desc (most recent activity first, default) or asc', choices(['desc', 'asc']))
    .addOption(limitOption('print at most this many conversations'))
    .addOption(allOption('print every conversation, following all pages'))
    .addOption(wideOption())
    .action(act((ctx, flags: ConversationsListOptions) => runF(ctx, flags)));
  formatOptions(list, FIELDS.conversation);
  examples(list, [
    'msgctl conversations list --unread',
    'msgctl conversations list --phone-number "(555) 555-0110" --channel sms --all --json',
  ]);
}
