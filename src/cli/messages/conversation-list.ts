/**
 * `msgctl conversations list|get`: GET /patient-conversations with the
 * sandbox's documented filters (docs/messages.md), and one conversation.
 */
import type { Context } from '../context.js';
import type { Query } from '../api/client.js';
import type { Column, OutputMode } from '../output/output.js';
import type { PatientConversation } from '../../contract/api.js';
import { UsageError } from '../errors.js';
import { looksLikeUuid } from '../util/ids.js';
import { CONVERSATION } from '../api/shapes.js';

export interface ConversationListFlags {
  patient?: string;
  phoneNumber?: string;
  channel?: 'secure' | 'sms';
  unread?: boolean;
  order?: 'desc' | 'asc';
  limit: number;
  all?: boolean;
}

const tableColumns: Column<PatientConversation>[] = [
  { header: 'activity', value: (c) => c.last_message_at, time: true },
  { header: 'id', value: (c) => c.id, id: true },
  // Whose conversation a row is: never dropped (the latest message goes first, then its number and
  // channel; at 80 columns the patient had gone and the latest message stayed).
  { header: 'patient', value: (c) => c.patient.name },
  { header: 'number', value: (c) => `${c.phone_number.number} ${c.phone_number.team}`, drop: 2 },
  { header: 'channel', value: (c) => c.channel, drop: 1 },
  { header: 'unread', value: (c) => c.unread_count || '', drop: 3 },
  { header: 'latest', value: (c) => c.latest_message?.body ?? '', flex: true, drop: 0.5 },
];

const plainColumns: Column<PatientConversation>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'patient_id', value: (c) => c.patient.id },
  { header: 'patient', value: (c) => c.patient.name },
  { header: 'phone_number', value: (c) => c.phone_number.number },
  { header: 'channel', value: (c) => c.channel },
  { header: 'last_message_at', value: (c) => c.last_message_at },
  { header: 'unread_count', value: (c) => c.unread_count },
];

export function conversationColumns(mode: OutputMode): Column<PatientConversation>[] {
  return mode === 'table' ? tableColumns : plainColumns;
}

const conversationFields: Column<PatientConversation>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'title', value: (c) => c.title },
  { header: 'patient', value: (c) => `${c.patient.name} (${c.patient.id})` },
  { header: 'phone_number', value: (c) => `${c.phone_number.number} (${c.phone_number.team})`, label: 'number' },
  { header: 'channel', value: (c) => c.channel },
  { header: 'created_at', value: (c) => c.created_at, time: true, label: 'started' },
  { header: 'last_message_at', value: (c) => c.last_message_at, time: true, label: 'last message' },
  { header: 'seen_at', value: (c) => c.seen_at, time: true, label: 'seen' },
  { header: 'unread_count', value: (c) => c.unread_count, label: 'unread' },
];

export async function listConversations(ctx: Context, flags: ConversationListFlags): Promise<void> {
  const query: Query = { channel: flags.channel, order: flags.order, unread: flags.unread ? 'true' : undefined };
  if (flags.patient !== undefined) {
    if (!looksLikeUuid(flags.patient)) throw new UsageError(`--patient "${flags.patient}" is not a patient id (UUID).`);
    query.patient_id = flags.patient.toLowerCase();
  }
  if (flags.phoneNumber !== undefined) {
    const { normalizePhone } = await import('../util/phone.js');
    const r = normalizePhone(flags.phoneNumber, await ctx.region());
    if (!r.ok) throw new UsageError(`--phone-number "${flags.phoneNumber}": ${r.reason}`);
    query.phone_number = r.e164;
  }
  const client = await ctx.client();
  const rows = client.paginate('/patient-conversations', query, {
    limit: flags.all ? undefined : flags.limit,
    signal: ctx.signal,
    shape: CONVERSATION,
  });
  await ctx.out.list(rows, conversationColumns(ctx.out.mode), { empty: 'No conversations match.', noun: 'conversations' });
}

export async function getConversation(ctx: Context, id: string): Promise<void> {
  if (!looksLikeUuid(id)) throw new UsageError(`"${id}" is not a conversation id (UUID).`);
  const client = await ctx.client();
  const conversation = await client.get(`/patient-conversations/${id.toLowerCase()}`, undefined, ctx.signal, CONVERSATION);
  await ctx.out.resource(conversation, conversationFields);
}
