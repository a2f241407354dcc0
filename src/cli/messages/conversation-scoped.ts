/**
 * What the conversation-scoped commands share (api-spec §4.9,
 * docs/conversation-scoped.md): `conversations messages|participants` and
 * `messages replies|react|unreact`. They act as an org admin, so they need an
 * OAuth login (`msgctl login` or MSGCTL_TOKEN); an API key gets exit 3
 * oauth_required.
 */
import type { ConversationMessage, Participant, Reaction } from '../../contract/api.js';
import type { Column } from '../output/output.js';
import type { Context } from '../context.js';

export const messageColumns: Column<ConversationMessage>[] = [
  { header: 'id', value: (m) => m.id, drop: 3 },
  { header: 'created_at', value: (m) => m.created_at, time: true },
  { header: 'sender_id', value: (m) => m.sender_id, drop: 1 },
  { header: 'reply_to', value: (m) => m.reply_to_message_id, drop: 2 },
  { header: 'body', value: (m) => m.body, flex: true },
];

export const participantColumns: Column<Participant>[] = [
  { header: 'user_id', value: (p) => p.user_id },
  { header: 'joined_at', value: (p) => p.joined_at, time: true },
];

export const reactionFields: Column<Reaction>[] = [
  { header: 'message_id', value: (r) => r.message_id },
  { header: 'user_id', value: (r) => r.user_id },
  { header: 'emoji', value: (r) => r.emoji },
  { header: 'created_at', value: (r) => r.created_at },
];

export async function printList<T>(ctx: Context, path: string, flags: { limit: number; all?: boolean }, columns: Column<T>[], empty: string): Promise<void> {
  const client = await ctx.client();
  const rows = client.paginate<T>(path, {}, { limit: flags.all ? undefined : flags.limit, signal: ctx.signal });
  await ctx.out.list(rows, columns, { empty });
}

export async function unreact(ctx: Context, messageId: string, emoji: string): Promise<void> {
  await (await ctx.client()).delete(`/messages/${messageId}/reactions/${encodeURIComponent(emoji)}`, ctx.signal);
  ctx.out.info(`Removed your ${emoji} reaction from ${messageId}.`);
}
