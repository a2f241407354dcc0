/** `msgctl conversations messages <conversation-id>`: oldest first (GET /conversations/{id}/messages; OAuth). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, allOption, wideOption, examples, limitOption, type Act, type ListFlags, formatOptions } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';
import { CONVERSATION_MESSAGE } from '../../api/shapes.js';

export interface ConversationsMessagesOptions extends ListFlags {
  conversationId: string;
}

export async function run(ctx: Context, opts: ConversationsMessagesOptions): Promise<void> {
  const { messageColumns, messageTableColumns, printList } = await import('../../messages/conversation-scoped.js');
  const columns = ctx.out.mode === 'table' ? messageTableColumns : messageColumns;
  await printList(ctx, `/conversations/${opts.conversationId}/messages`, opts, columns, 'No messages in this conversation.', 'messages', CONVERSATION_MESSAGE);
}

export function register(conversations: Command, act: Act, runF: typeof run = run): void {
  const convMessages = conversations
    .command('messages')
    .description('List the messages of a conversation, oldest first (GET /conversations/{id}/messages; OAuth)')
    .addOption(limitOption('print at most this many messages'))
    .addOption(allOption('print every messages, following all pages'))
    .addOption(wideOption())
    .argument('<conversation-id>', 'conversation (UUID)', uuidArg('conversation id'))
    .action(act((ctx, conversationId: string, flags: ListFlags) => runF(ctx, { ...flags, conversationId })));
  formatOptions(convMessages, FIELDS.conversationMessage);
  describeArguments(convMessages, { 'conversation-id': ARGS.conversationId });
  examples(convMessages, [
    'msgctl conversations messages 0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3',
    'msgctl conversations messages "$CONV" --all --json | jq -r .body',
  ]);
}
