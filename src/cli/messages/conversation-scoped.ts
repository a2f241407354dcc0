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
import { messageTable } from './message-columns.js';
import { STAFF_MEMBER } from '../api/shapes.js';
import type { Shape } from '../api/answer-shape.js';

/** Piped: these fields, tab-separated (unchanged). */
export const messageColumns: Column<ConversationMessage>[] = [
  { header: 'id', value: (m) => m.id, id: true },
  { header: 'created_at', value: (m) => m.created_at, time: true },
  { header: 'sender_id', value: (m) => m.sender_id, drop: 1 },
  { header: 'reply_to', value: (m) => m.reply_to_message_id, drop: 2 },
  { header: 'body', value: (m) => m.body, flex: true },
];

/** On a terminal: the message tables' shared columns, the sender by name from the staff directory. */
export function messageTableColumns(names: ReadonlyMap<string, string>): Column<ConversationMessage>[] {
  return messageTable<ConversationMessage>({
    id: (m) => m.id,
    time: (m) => m.created_at,
    conversation: () => null,
    from: (m) => names.get(m.sender_id) ?? m.sender_id,
    body: (m) => (m.reply_to_message_id ? `↳ ${m.body}` : m.body),
  });
}

export const participantColumns: Column<Participant>[] = [
  { header: 'user_id', value: (p) => p.user_id, id: true },
  { header: 'joined_at', value: (p) => p.joined_at, time: true, label: 'joined' },
];

/** On a terminal: who, by name, then the id to act on. */
export function participantTableColumns(names: ReadonlyMap<string, string>): Column<Participant>[] {
  return [
    { header: 'name', value: (p) => names.get(p.user_id) ?? '' , drop: 1 },
    ...participantColumns,
  ];
}

/** The people msgctl can name (GET /staff, at most a few pages); none when the directory cannot be read. */
export async function staffNames(ctx: Context): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  try {
    const client = await ctx.client();
    for await (const person of client.paginate('/staff', {}, { limit: 1000, signal: ctx.signal, shape: STAFF_MEMBER })) names.set(person.id, person.name);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    // Without the directory, senders show as ids: still the list the person asked for.
  }
  return names;
}

export const reactionFields: Column<Reaction>[] = [
  { header: 'message_id', value: (r) => r.message_id },
  { header: 'user_id', value: (r) => r.user_id },
  { header: 'emoji', value: (r) => r.emoji },
  { header: 'created_at', value: (r) => r.created_at },
];

export async function printList<T>(
  ctx: Context,
  path: string,
  flags: { limit: number; all?: boolean },
  columns: Column<T>[] | ((names: ReadonlyMap<string, string>) => Column<T>[]),
  empty: string,
  noun: string,
  shape: Shape<T>,
): Promise<void> {
  const client = await ctx.client();
  const rows = client.paginate(path, {}, { limit: flags.all ? undefined : flags.limit, signal: ctx.signal, shape });
  const chosen = typeof columns === 'function' ? columns(ctx.out.mode === 'table' ? await staffNames(ctx) : new Map()) : columns;
  await ctx.out.list(rows, chosen, { empty, noun });
}

export async function unreact(ctx: Context, messageId: string, emoji: string): Promise<void> {
  await (await ctx.client()).delete(`/messages/${messageId}/reactions/${encodeURIComponent(emoji)}`, ctx.signal);
  ctx.out.info(`Removed your ${emoji} reaction from ${messageId}.`);
}
