/** `msgctl conversations participants remove <conversation-id> --user <id>` (DELETE …/participants/{user}). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';

export interface ParticipantsRemoveOptions {
  conversationId: string;
  user: string;
}

export async function run(ctx: Context, opts: ParticipantsRemoveOptions): Promise<void> {
  await (await ctx.client()).delete(`/conversations/${opts.conversationId}/participants/${opts.user}`, ctx.signal);
  ctx.out.info(`Removed ${opts.user} from conversation ${opts.conversationId}.`);
}

export function register(participants: Command, act: Act, runF: typeof run = run): void {
  const remove = participants
    .command('remove')
    .description('Remove someone (or yourself) from a conversation (DELETE /conversations/{id}/participants/{user})')
    .argument('<conversation-id>', 'conversation (UUID)', uuidArg('conversation id'))
    .requiredOption('--user <user-id>', 'the participant to remove', uuidArg('user id'))
    .action(act((ctx, conversationId: string, flags: { user: string }) => runF(ctx, { ...flags, conversationId })));
  describeArguments(remove, { 'conversation-id': ARGS.conversationId });
  examples(remove, ['msgctl conversations participants remove "$CONV" --user "$USER_ID"']);
}
