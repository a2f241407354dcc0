/** `msgctl conversations get <id>`: one patient conversation with its unread count. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';

export interface ConversationsGetOptions {
  id: string;
}

export async function run(ctx: Context, opts: ConversationsGetOptions): Promise<void> {
  const { getConversation } = await import('../../messages/conversation-list.js');
  await getConversation(ctx, opts.id);
}

export function register(conversations: Command, act: Act, runF: typeof run = run): void {
  const get = conversations
    .command('get <id>')
    .description('Show one patient conversation with its unread count (GET /patient-conversations/{id})')
    .action(act((ctx, id: string) => runF(ctx, { id })));
  formatOptions(get, FIELDS.conversation);
  describeArguments(get, { id: ARGS.conversationId });
  examples(get, ['msgctl conversations get "$CONVERSATION_ID"', 'msgctl conversations get "$CONVERSATION_ID" --json | jq .unread_count']);
}
