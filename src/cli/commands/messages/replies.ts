/** `msgctl messages replies <message-id>`: oldest first (GET /messages/{id}/replies; OAuth). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { allOption, wideOption, examples, limitOption, type Act, type ListFlags, formatOptions } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';
import { CONVERSATION_MESSAGE } from '../../api/shapes.js';

export interface MessagesRepliesOptions extends ListFlags {
  messageId: string;
}

export async function run(ctx: Context, opts: MessagesRepliesOptions): Promise<void> {
  const { messageColumns, messageTableColumns, printList } = await import('../../messages/conversation-scoped.js');
  const columns = ctx.out.mode === 'table' ? messageTableColumns : messageColumns;
  await printList(ctx, `/messages/${opts.messageId}/replies`, opts, columns, 'No replies.', 'replies', CONVERSATION_MESSAGE);
}

export function register(messages: Command, act: Act, runF: typeof run = run): void {
  const replies = messages
    .command('replies')
    .description('List the replies to a message, oldest first (GET /messages/{id}/replies; OAuth)')
    .addOption(limitOption('print at most this many replies'))
    .addOption(allOption('print every replies, following all pages'))
    .addOption(wideOption())
    .argument('<message-id>', 'message (UUID)', uuidArg('message id'))
    .action(act((ctx, messageId: string, flags: ListFlags) => runF(ctx, { ...flags, messageId })));
  formatOptions(replies, FIELDS.conversationMessage);
  examples(replies, ['msgctl messages replies "$MSG"', 'msgctl messages replies "$MSG" --all --json | jq -r .body']);
}
