/**
 * Conversation-scoped commands (api-spec §4.9, docs/conversation-scoped.md),
 * added to the `conversations` and `messages` groups that other command files
 * own: `conversations messages|participants`, `messages replies|react|unreact`.
 * They act as an org admin, so they need an OAuth login (`msgctl login` or
 * MSGCTL_TOKEN); an API key gets exit 3 oauth_required.
 */
import type { Command } from 'commander';
import type { ConversationMessage, Participant, Reaction } from '../../contract/api.js';
import type { Column } from '../output/output.js';
import type { Context } from '../context.js';
import { examples, positiveInt, type Act } from './kit.js';
import { uuidArg } from './uuid-arg.js';

const messageColumns: Column<ConversationMessage>[] = [
  { header: 'id', value: (m) => m.id },
  { header: 'created_at', value: (m) => m.created_at },
  { header: 'sender_id', value: (m) => m.sender_id },
  { header: 'reply_to', value: (m) => m.reply_to_message_id },
  { header: 'body', value: (m) => m.body, flex: true },
];

const participantColumns: Column<Participant>[] = [
  { header: 'user_id', value: (p) => p.user_id },
  { header: 'joined_at', value: (p) => p.joined_at },
];

const reactionFields: Column<Reaction>[] = [
  { header: 'message_id', value: (r) => r.message_id },
  { header: 'user_id', value: (r) => r.user_id },
  { header: 'emoji', value: (r) => r.emoji },
  { header: 'created_at', value: (r) => r.created_at },
];

interface ListFlags {
  limit: number;
  all?: boolean;
}

function group(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

function listOptions(cmd: Command, what: string): Command {
  return cmd
    .option('--limit <n>', `print at most this many ${what}`, positiveInt, 50)
    .option('--all', `print every ${what}, following all pages`);
}

async function printList<T>(ctx: Context, path: string, flags: ListFlags, columns: Column<T>[], empty: string): Promise<void> {
  const client = await ctx.client();
  const rows = client.paginate<T>(path, {}, { limit: flags.all ? undefined : flags.limit, signal: ctx.signal });
  await ctx.out.list(rows, columns, { empty });
}

export function registerConversationScoped(program: Command, act: Act): void {
  const conversations = group(program, 'conversations', 'Patient conversations and conversation-scoped operations');
  const messages = group(program, 'messages', 'Read messages, their replies and reactions');

  const convMessages = listOptions(
    conversations.command('messages').description('List the messages of a conversation, oldest first (GET /conversations/{id}/messages; OAuth)'),
    'messages',
  )
    .argument('<conversation-id>', 'conversation (UUID)', uuidArg('conversation id'))
    .action(
      act(async (ctx, id: string, flags: ListFlags) => {
        await printList(ctx, `/conversations/${id}/messages`, flags, messageColumns, 'No messages in this conversation.');
      }),
    );
  examples(convMessages, [
    'msgctl conversations messages 0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3',
    'msgctl conversations messages "$CONV" --all --json | jq -r .body',
  ]);

  const participants = conversations
    .command('participants')
    .description('List, add or remove the participants of a conversation (OAuth)')
    .argument('[conversation-id]', 'conversation (UUID) whose participants to list', uuidArg('conversation id'))
    .option('--limit <n>', 'print at most this many participants', positiveInt, 50)
    .option('--all', 'print every participant, following all pages')
    .action(
      act(async (ctx, id: string | undefined, flags: ListFlags) => {
        if (!id) {
          const { UsageError } = await import('../errors.js');
          throw new UsageError('Give a conversation id: msgctl conversations participants <conversation-id>.');
        }
        await printList(ctx, `/conversations/${id}/participants`, flags, participantColumns, 'No participants.');
      }),
    );
  examples(participants, [
    'msgctl conversations participants "$CONV"',
    'msgctl conversations participants add "$CONV" --user "$USER_ID"',
    'msgctl conversations participants remove "$CONV" --user "$USER_ID"',
  ]);

  const add = participants
    .command('add')
    .description('Add a member of the organization to a conversation (POST /conversations/{id}/participants)')
    .argument('<conversation-id>', 'conversation (UUID)', uuidArg('conversation id'))
    .requiredOption('--user <user-id>', 'the staff member to add (see `msgctl staff list`)', uuidArg('user id'))
    .option('--idempotency-key <uuid>', 'make a retried add safe: the service replays the first result for 24 h')
    .action(
      act(async (ctx, id: string, flags: { user: string; idempotencyKey?: string }) => {
        const client = await ctx.client();
        const participant = await client.post<Participant>(
          `/conversations/${id}/participants`,
          { user_id: flags.user },
          ctx.idempotencyKey(flags.idempotencyKey),
          ctx.signal,
        );
        await ctx.out.resource(participant, participantColumns);
      }),
    );
  examples(add, ['msgctl conversations participants add "$CONV" --user "$USER_ID"']);

  const remove = participants
    .command('remove')
    .description('Remove someone (or yourself) from a conversation (DELETE /conversations/{id}/participants/{user})')
    .argument('<conversation-id>', 'conversation (UUID)', uuidArg('conversation id'))
    .requiredOption('--user <user-id>', 'the participant to remove', uuidArg('user id'))
    .action(
      act(async (ctx, id: string, flags: { user: string }) => {
        await (await ctx.client()).delete(`/conversations/${id}/participants/${flags.user}`, ctx.signal);
        ctx.out.info(`Removed ${flags.user} from conversation ${id}.`);
      }),
    );
  examples(remove, ['msgctl conversations participants remove "$CONV" --user "$USER_ID"']);

  const replies = listOptions(
    messages.command('replies').description('List the replies to a message, oldest first (GET /messages/{id}/replies; OAuth)'),
    'replies',
  )
    .argument('<message-id>', 'message (UUID)', uuidArg('message id'))
    .action(
      act(async (ctx, id: string, flags: ListFlags) => {
        await printList(ctx, `/messages/${id}/replies`, flags, messageColumns, 'No replies.');
      }),
    );
  examples(replies, ['msgctl messages replies "$MSG"', 'msgctl messages replies "$MSG" --all --json | jq -r .body']);

  const react = messages
    .command('react')
    .description('React to a message with one emoji (POST /messages/{id}/reactions), or take your reaction back with --remove')
    .argument('<message-id>', 'message (UUID)', uuidArg('message id'))
    .argument('<emoji>', 'exactly one emoji, e.g. 👍')
    .option('--remove', 'remove your reaction with this emoji instead (same as `messages unreact`)')
    .option('--idempotency-key <uuid>', 'make a retried reaction safe: the service replays the first result for 24 h')
    .action(
      act(async (ctx, id: string, emoji: string, flags: { remove?: boolean; idempotencyKey?: string }) => {
        if (flags.remove) return unreact(ctx, id, emoji);
        const client = await ctx.client();
        const reaction = await client.post<Reaction>(`/messages/${id}/reactions`, { emoji }, ctx.idempotencyKey(flags.idempotencyKey), ctx.signal);
        await ctx.out.resource(reaction, reactionFields);
      }),
    );
  examples(react, ['msgctl messages react "$MSG" 👍', 'msgctl messages react "$MSG" 👍 --remove']);

  const unreactCmd = messages
    .command('unreact')
    .description('Remove your reaction with this emoji from a message (DELETE /messages/{id}/reactions/{emoji})')
    .argument('<message-id>', 'message (UUID)', uuidArg('message id'))
    .argument('<emoji>', 'the emoji you reacted with')
    .action(act(async (ctx, id: string, emoji: string) => unreact(ctx, id, emoji)));
  examples(unreactCmd, ['msgctl messages unreact "$MSG" 👍']);
}

async function unreact(ctx: Context, messageId: string, emoji: string): Promise<void> {
  await (await ctx.client()).delete(`/messages/${messageId}/reactions/${encodeURIComponent(emoji)}`, ctx.signal);
  ctx.out.info(`Removed your ${emoji} reaction from ${messageId}.`);
}
