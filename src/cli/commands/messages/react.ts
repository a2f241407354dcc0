/** `msgctl messages react <message-id> <emoji>` (POST /messages/{id}/reactions), or --remove to take it back. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act, formatOptions } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';
import { REACTION } from '../../api/shapes.js';

export interface MessagesReactOptions {
  messageId: string;
  emoji: string;
  remove?: boolean;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: MessagesReactOptions): Promise<void> {
  const { reactionFields, unreact } = await import('../../messages/conversation-scoped.js');
  if (opts.remove) return unreact(ctx, opts.messageId, opts.emoji);
  const client = await ctx.client();
  const reaction = await client.post(
    `/messages/${opts.messageId}/reactions`,
    { emoji: opts.emoji },
    ctx.idempotencyKey(opts.idempotencyKey),
    ctx.signal,
    REACTION,
  );
  await ctx.out.resource(reaction, reactionFields);
}

export function register(messages: Command, act: Act, runF: typeof run = run): void {
  const react = messages
    .command('react')
    .description('React to a message with one emoji (POST /messages/{id}/reactions), or take your reaction back with --remove')
    .argument('<message-id>', 'message (UUID)', uuidArg('message id'))
    .argument('<emoji>', 'exactly one emoji, e.g. 👍')
    .option('--remove', 'remove your reaction with this emoji instead (same as `messages unreact`)')
    .option('--idempotency-key <uuid>', 'make a retried reaction safe: the service replays the first result for 24 h')
    .action(
      act((ctx, messageId: string, emoji: string, flags: { remove?: boolean; idempotencyKey?: string }) =>
        runF(ctx, { ...flags, messageId, emoji }),
      ),
    );
  formatOptions(react, FIELDS.reaction);
  examples(react, ['msgctl messages react "$MSG" 👍', 'msgctl messages react "$MSG" 👍 --remove']);
}
