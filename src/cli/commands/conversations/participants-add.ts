/** `msgctl conversations participants add <conversation-id> --user <id>` (POST /conversations/{id}/participants). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';
import { PARTICIPANT } from '../../api/shapes.js';

export interface ParticipantsAddOptions {
  conversationId: string;
  user: string;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: ParticipantsAddOptions): Promise<void> {
  const { participantColumns } = await import('../../messages/conversation-scoped.js');
  const client = await ctx.client();
  const participant = await client.post(
    `/conversations/${opts.conversationId}/participants`,
    { user_id: opts.user },
    ctx.idempotencyKey(opts.idempotencyKey),
    ctx.signal,
    PARTICIPANT,
  );
  await ctx.out.resource(participant, participantColumns);
}

export function register(participants: Command, act: Act, runF: typeof run = run): void {
  const add = participants
    .command('add')
    .description('Add a member of the organization to a conversation (POST /conversations/{id}/participants)')
    .argument('<conversation-id>', 'conversation (UUID)', uuidArg('conversation id'))
    .requiredOption('--user <user-id>', 'the staff member to add (see `msgctl staff list`)', uuidArg('user id'))
    .option('--idempotency-key <uuid>', 'make a retried add safe: the service replays the first result for 24 h')
    .action(
      act((ctx, conversationId: string, flags: { user: string; idempotencyKey?: string }) => runF(ctx, { ...flags, conversationId })),
    );
  formatOptions(add, FIELDS.participant);
  describeArguments(add, { 'conversation-id': ARGS.conversationId });
  examples(add, ['msgctl conversations participants add "$CONV" --user "$USER_ID"']);
}
