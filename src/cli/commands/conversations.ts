/**
 * `msgctl conversations …`: patient conversations. Other files add
 * subcommands by passing registrars to registerConversations.
 */
import type { Command } from 'commander';
import { choices, examples, positiveInt, type Act } from './kit.js';
import type { Subcommands } from './messages.js';

export function registerConversations(program: Command, act: Act, ...more: Subcommands[]): Command {
  const conversations = program.command('conversations').description('List and show patient conversations');
  examples(conversations, ['msgctl conversations list --unread', 'msgctl conversations get "$CONVERSATION_ID"']);

  const list = conversations
    .command('list')
    .description('List patient conversations, most recently active first (GET /patient-conversations)')
    .option('--patient <id>', 'only this patient\'s conversations')
    .option('--phone-number <number>', 'only conversations on this clinic number (any common format)')
    .option('--channel <channel>', 'only secure or only sms conversations', choices(['secure', 'sms']))
    .option('--unread', 'only conversations with unread patient messages')
    .option('--order <order>', 'desc (most recent activity first, default) or asc', choices(['desc', 'asc']))
    .option('--limit <n>', 'print at most this many conversations', positiveInt, 50)
    .option('--all', 'print every conversation, following all pages')
    .action(
      act(async (ctx, flags) => {
        const { listConversations } = await import('../messages/conversation-list.js');
        await listConversations(ctx, flags);
      }),
    );
  examples(list, [
    'msgctl conversations list --unread',
    'msgctl conversations list --phone-number "(555) 555-0110" --channel sms --all --json',
  ]);

  const get = conversations
    .command('get <id>')
    .description('Show one patient conversation with its unread count (GET /patient-conversations/{id})')
    .action(
      act(async (ctx, id: string) => {
        const { getConversation } = await import('../messages/conversation-list.js');
        await getConversation(ctx, id);
      }),
    );
  examples(get, ['msgctl conversations get "$CONVERSATION_ID"', 'msgctl conversations get "$CONVERSATION_ID" --json | jq .unread_count']);

  for (const register of more) register(conversations, act);
  return conversations;
}
