/** `msgctl messages unreact <message-id> <emoji>` (DELETE /messages/{id}/reactions/{emoji}). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';

export interface MessagesUnreactOptions {
  messageId: string;
  emoji: string;
}

export async function run(ctx: Context, opts: MessagesUnreactOptions): Promise<void> {
  const { unreact } = await import('../../messages/conversation-scoped.js');
  await unreact(ctx, opts.messageId, opts.emoji);
}

export function register(messages: Command, act: Act, runF: typeof run = run): void {
  const unreactCmd = messages
    .command('unreact')
    .description('Remove your reaction with this emoji from a message (DELETE /messages/{id}/reactions/{emoji})')
    .argument('<message-id>', 'message (UUID)', uuidArg('message id'))
    .argument('<emoji>', 'the emoji you reacted with')
    .action(act((ctx, messageId: string, emoji: string) => runF(ctx, { messageId, emoji })));
  examples(unreactCmd, ['msgctl messages unreact "$MSG" 👍']);
}
