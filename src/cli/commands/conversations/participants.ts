/** `msgctl conversations participants <conversation-id>`: list them (OAuth); `add` and `remove` hang under it. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, allOption, wideOption, examples, limitOption, type Act, type ListFlags, formatOptions } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';
import { PARTICIPANT } from '../../api/shapes.js';

export interface ConversationsParticipantsOptions extends ListFlags {
  conversationId?: string;
}

export async function run(ctx: Context, opts: ConversationsParticipantsOptions): Promise<void> {
  if (!opts.conversationId) {
    const { UsageError } = await import('../../errors.js');
    throw new UsageError('Give a conversation id: msgctl conversations participants <conversation-id>.');
  }
  const { participantColumns, participantTableColumns, printList } = await import('../../messages/conversation-scoped.js');
  const columns = ctx.out.mode === 'table' ? participantTableColumns : participantColumns;
  await printList(ctx, `/conversations/${opts.conversationId}/participants`, opts, columns, 'No participants.', 'participants', PARTICIPANT);
}

/** Returns the `participants` command, which `add` and `remove` hang under. */
export function register(conversations: Command, act: Act, runF: typeof run = run): Command {
  const participants = conversations
    .command('participants')
    .description('List, add or remove the participants of a conversation (OAuth)')
    .argument('[conversation-id]', 'conversation (UUID) whose participants to list', uuidArg('conversation id'))
    .addOption(limitOption('print at most this many participants'))
    .addOption(allOption('print every participant, following all pages'))
    .addOption(wideOption())
    .action(act((ctx, conversationId: string | undefined, flags: ListFlags) => runF(ctx, { ...flags, conversationId })));
  formatOptions(participants, FIELDS.participant);
  describeArguments(participants, { 'conversation-id': ARGS.conversationId });
  examples(participants, [
    'msgctl conversations participants "$CONV"',
    'msgctl conversations participants add "$CONV" --user "$USER_ID"',
    'msgctl conversations participants remove "$CONV" --user "$USER_ID"',
  ]);
  return participants;
}
