/**
 * How messages look in a list. On a terminal the three message tables
 * (`messages list`, `me messages`, `conversations messages`, and `messages
 * replies`) share one set of columns and headers: when, the id to act on,
 * which conversation, who wrote it (a name, never a UUID), channel, status,
 * and the body cut to the width. Piped: stable tab-separated fields for
 * cut/awk, full ids and UTC times, as before.
 */
import type { Column, GroupedBy, OutputMode } from '../output/output.js';
import type { Message } from '../../contract/api.js';

export function isInbound(m: Message): boolean {
  return m.sender.kind === 'patient';
}

/** Delivery status of an outbound message; read/unread for one from the patient. */
export function messageStatus(m: Message): string {
  if (isInbound(m)) return m.unread ? 'unread' : 'received';
  return m.delivery?.status ?? '';
}

/** What a row of any message table shows. */
export interface MessageCells<T> {
  id: (row: T) => string;
  time: (row: T) => string;
  conversation: (row: T) => string | null | undefined;
  from: (row: T) => string | null | undefined;
  channel?: (row: T) => string | null | undefined;
  status?: (row: T) => string | null | undefined;
  body: (row: T) => string;
}

// Narrow terminals lose channel, then the sender, status and conversation; the id goes last (table-layout.ts).
export function messageTable<T>(cells: MessageCells<T>): Column<T>[] {
  return [
    { header: 'time', value: cells.time, time: true },
    { header: 'id', value: cells.id, id: true },
    { header: 'conversation', value: cells.conversation, drop: 1 },
    { header: 'from', value: cells.from, drop: 3 },
    { header: 'channel', value: cells.channel ?? (() => null), drop: 4 },
    { header: 'status', value: cells.status ?? (() => null), drop: 2 },
    { header: 'body', value: cells.body, flex: true },
  ];
}

/** Who wrote a message, by name: "Amara Chen", "Front desk key", "Dana Whitfield via Zapier". */
export function senderName(m: Message): string {
  return m.sent_via ? `${m.sender.name} via ${m.sent_via}` : m.sender.name;
}

const tableColumns = messageTable<Message>({
  id: (m) => m.id,
  time: (m) => m.created_at,
  conversation: (m) => m.patient?.name ?? m.conversation.title,
  from: senderName,
  channel: (m) => m.channel,
  status: messageStatus,
  body: (m) => m.body,
});

const plainColumns: Column<Message>[] = [
  { header: 'id', value: (m) => m.id },
  { header: 'created_at', value: (m) => m.created_at },
  { header: 'conversation_id', value: (m) => m.conversation.id },
  { header: 'patient_id', value: (m) => m.patient?.id },
  { header: 'patient', value: (m) => m.patient?.name },
  { header: 'direction', value: (m) => (isInbound(m) ? 'in' : 'out') },
  { header: 'sender_kind', value: (m) => m.sender.kind },
  { header: 'sender', value: (m) => m.sender.name },
  { header: 'channel', value: (m) => m.channel },
  { header: 'status', value: messageStatus },
  { header: 'body', value: (m) => m.body },
];

/**
 * `--group-by conversation` on a terminal too narrow for the conversation column: each
 * conversation's heading names it as the column would, with what tells two of one patient's
 * apart (the channel), then the id `conversations messages` takes, whole.
 */
export const byConversation: GroupedBy<Message> = {
  column: 'conversation',
  key: (m) => m.conversation.id,
  heading: (m) => ({ text: `${m.patient?.name ?? m.conversation.title ?? '(untitled)'}${m.channel ? ` (${m.channel})` : ''}`, id: m.conversation.id }),
};

/** `messages list` and `me messages`: the shared table on a terminal, each command's own fields piped. */
export function messageColumns(mode: OutputMode, piped: Column<Message>[] = plainColumns): Column<Message>[] {
  return mode === 'table' ? tableColumns : piped;
}

/** `messages get` / `me messages get` piped: every field worth reading, one per line (unchanged). */
export const messageFields: Column<Message>[] = [
  { header: 'id', value: (m) => m.id },
  { header: 'created_at', value: (m) => m.created_at },
  { header: 'conversation', value: (m) => `${m.conversation.id} (${m.conversation.title})` },
  { header: 'patient', value: (m) => (m.patient ? `${m.patient.name} (${m.patient.id})` : null) },
  { header: 'sender', value: (m) => `${m.sender.name} (${m.sender.kind})` },
  { header: 'channel', value: (m) => m.channel },
  { header: 'phone_number', value: (m) => (m.phone_number ? `${m.phone_number.number} (${m.phone_number.team})` : null) },
  { header: 'status', value: messageStatus },
  { header: 'delivery_error', value: (m) => (m.delivery?.error ? `${m.delivery.error.code}: ${m.delivery.error.message}` : null) },
  { header: 'delivery_updated_at', value: (m) => m.delivery?.updated_at },
  { header: 'campaign_id', value: (m) => m.campaign_id },
  { header: 'reply_to', value: (m) => m.reply_to_message_id },
  { header: 'edited_at', value: (m) => m.edited_at },
  { header: 'sent_via', value: (m) => m.sent_via },
  { header: 'body', value: (m) => m.body },
];

/** A message on a terminal: who, where, how it went, then the text. */
export const messageView: Column<Message>[] = [
  { header: 'id', value: (m) => m.id },
  { header: 'sent', value: (m) => m.created_at, time: true },
  { header: 'conversation', value: (m) => `${m.conversation.title} (${m.conversation.id})` },
  { header: 'patient', value: (m) => (m.patient ? `${m.patient.name} (${m.patient.id})` : null), detail: true },
  { header: 'from', value: (m) => `${senderName(m)} (${m.sender.kind === 'api_key' ? 'API key' : m.sender.kind})` },
  { header: 'channel', value: (m) => (m.phone_number ? `${m.channel} via ${m.phone_number.number} (${m.phone_number.team})` : m.channel) },
  { header: 'status', value: messageStatus },
  { header: 'delivery_updated_at', label: 'status since', value: (m) => m.delivery?.updated_at, time: true },
  { header: 'delivery_error', label: 'error', value: (m) => (m.delivery?.error ? `${m.delivery.error.code}: ${m.delivery.error.message}` : null) },
  { header: 'campaign_id', label: 'campaign', value: (m) => m.campaign_id },
  { header: 'reply_to', label: 'reply to', value: (m) => m.reply_to_message_id },
  { header: 'edited_at', label: 'edited', value: (m) => m.edited_at, time: true },
  { header: 'body', value: (m) => m.body },
];
