/**
 * How a Message looks in a list. On a terminal: what an operator scans for
 * (when, who, which way, how it went, what it said, cut to the width). Piped:
 * stable tab-separated fields for cut/awk, full ids and UTC times.
 */
import type { Column, OutputMode } from '../output/output.js';
import type { Message } from '../../contract/api.js';


export function isInbound(m: Message): boolean {
  return m.sender.kind === 'patient';
}

/** Delivery status of an outbound message; read/unread for one from the patient. */
export function messageStatus(m: Message): string {
  if (isInbound(m)) return m.unread ? 'unread' : 'received';
  return m.delivery?.status ?? '';
}

// Narrow terminals lose channel, then the sender, before the body gets unreadable (table-layout.ts).
const tableColumns: Column<Message>[] = [
  { header: 'time', value: (m) => m.created_at, time: true },
  { header: 'patient', value: (m) => m.patient?.name ?? m.conversation.title },
  { header: 'from', value: (m) => (isInbound(m) ? '← patient' : `→ ${m.sender.name}`), drop: 1 },
  { header: 'channel', value: (m) => m.channel, drop: 2 },
  { header: 'status', value: messageStatus },
  { header: 'body', value: (m) => m.body, flex: true },
];

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

export function messageColumns(mode: OutputMode): Column<Message>[] {
  return mode === 'table' ? tableColumns : plainColumns;
}

/** `messages get`: every field worth reading, one per line. */
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
