/**
 * A message's API view (views.ts messageView) as stored JSON text, so pages
 * of GET /patient-messages splice texts instead of parsing each record,
 * building its view and serialising it again (most of a page's cost).
 *
 * The view mixes the message's own fields with its conversation (title,
 * read time → `unread`), clinic number and patient, which change on their
 * own. The stored text (messages.view, written with every write of the
 * record, store/schema.ts) therefore holds the message's part only, cut
 * where those go: a header (the ids and fields the page needs to fill them
 * in), then the four pieces between them. SEP cannot occur inside JSON text
 * (JSON.stringify escapes every control character).
 */
import type { MessageRecord } from './records.js';

const SEP = '\u0001';
const J = JSON.stringify;

export interface MessageText {
  conversationId: string;
  phoneNumberId: string | null;
  patientId: string | null;
  senderKind: MessageRecord['senderKind'];
  createdAt: string;
  createdMs: number;
  /** `{"id":…,"conversation":{"id":…,"title":` — then the title. */
  beforeTitle: string;
  /** `},"sender":…,"phone_number":` — then the number or null. */
  beforeNumber: string;
  /** `,"delivery":…,"unread":` — then true or false. */
  beforeUnread: string;
  /** `,"sent_via":…` — then the patient, if any, and `}`. */
  beforePatient: string;
}

/** The stored text of a message, or null for a record it cannot describe (a field missing: served the slow way). */
export function messageText(m: MessageRecord): string | null {
  const own = [m.id, m.createdMs, m.conversationId, m.senderId, m.senderName, m.senderKind, m.channel, m.phoneNumberId, m.patientId, m.delivery,
    m.campaignId, m.created_at, m.edited_at, m.body, m.replyToId, m.sentVia];
  if (own.includes(undefined as never)) return null;
  return [
    m.conversationId,
    m.phoneNumberId ?? '',
    m.patientId ?? '',
    m.senderKind,
    m.created_at,
    String(m.createdMs),
    `{"id":${J(m.id)},"conversation":{"id":${J(m.conversationId)},"title":`,
    `},"sender":${J({ id: m.senderId, name: m.senderName, kind: m.senderKind })},"channel":${J(m.channel)},"phone_number":`,
    `,"delivery":${J(m.delivery ? { ...m.delivery } : null)},"campaign_id":${J(m.campaignId)},"created_at":${J(m.created_at)}` +
      `,"edited_at":${J(m.edited_at)},"type":"text","body":${J(m.body)},"file":null,"reply_to_message_id":${J(m.replyToId)},"unread":`,
    `,"sent_via":${J(m.sentVia)}`,
  ].join(SEP);
}

export function readMessageText(text: string): MessageText | null {
  const p = text.split(SEP);
  if (p.length !== 10) return null;
  return {
    conversationId: p[0]!,
    phoneNumberId: p[1] || null,
    patientId: p[2] || null,
    senderKind: p[3] as MessageRecord['senderKind'],
    createdAt: p[4]!,
    createdMs: Number(p[5]),
    beforeTitle: p[6]!,
    beforeNumber: p[7]!,
    beforeUnread: p[8]!,
    beforePatient: p[9]!,
  };
}
