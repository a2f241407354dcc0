/**
 * Records → API shapes (src/contract/api.ts). Every route and worker that
 * serves a patient, message or conversation goes through these, so the wire
 * format is defined once.
 */
import type { ConversationMessage, Message, Patient, PatientConversation } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { ConversationRecord, MessageRecord, PatientRecord } from './records.js';

export function patientName(p: Pick<PatientRecord, 'first_name' | 'last_name' | 'phone' | 'email'>): string {
  const name = `${p.first_name} ${p.last_name}`.trim();
  return name || p.phone || p.email || 'Unknown patient';
}

export function patientView(
  sb: SandboxContext,
  p: PatientRecord,
  matchedBy: Patient['matched_by'] = null,
  /** Counted already for a whole page (patient-texts.ts), else counted here. */
  conversationCount = sb.db.conversations.count('patient_id = ?', [p.id]),
): Patient {
  return {
    id: p.id,
    first_name: p.first_name,
    last_name: p.last_name,
    date_of_birth: p.date_of_birth,
    phone: p.phone,
    email: p.email,
    mrn: p.mrn,
    sms_opted_out: p.optedOutFrom.length > 0,
    conversation_count: conversationCount,
    created_at: p.created_at,
    matched_by: matchedBy,
  };
}

/** A patient-side message is unread until staff have seen the conversation after it arrived. */
export function isUnread(conversation: Pick<ConversationRecord, 'seen_at'> | undefined, m: Pick<MessageRecord, 'senderKind' | 'created_at'>): boolean {
  if (m.senderKind !== 'patient') return false;
  return !conversation?.seen_at || conversation.seen_at < m.created_at;
}

export function messageView(sb: SandboxContext, m: MessageRecord): Message {
  const conversation = sb.db.conversations.get(m.conversationId);
  const number = m.phoneNumberId ? sb.db.phoneNumbers.get(m.phoneNumberId) : undefined;
  const patient = m.patientId ? sb.db.patients.get(m.patientId) : undefined;
  const view: Message = {
    id: m.id,
    conversation: { id: m.conversationId, title: conversation?.title ?? '' },
    sender: { id: m.senderId, name: m.senderName, kind: m.senderKind },
    channel: m.channel,
    phone_number: number ? { number: number.number, team: number.team } : null,
    delivery: m.delivery ? { ...m.delivery } : null,
    campaign_id: m.campaignId,
    created_at: m.created_at,
    edited_at: m.edited_at,
    type: 'text',
    body: m.body,
    file: null,
    reply_to_message_id: m.replyToId,
    unread: isUnread(conversation, m),
    sent_via: m.sentVia,
  };
  if (patient) view.patient = { id: patient.id, name: patientName(patient) };
  return view;
}

export function conversationMessageView(m: MessageRecord): ConversationMessage {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    sender_id: m.senderId,
    created_at: m.created_at,
    type: 'text',
    body: m.body,
    file: null,
    reply_to_message_id: m.replyToId,
  };
}

export function patientConversationView(
  sb: SandboxContext,
  c: ConversationRecord,
  extras: { messagesInRange?: Message[] | null; latest?: Message | null; unreadCount?: number } = {},
): PatientConversation {
  const patient = c.patientId ? sb.db.patients.get(c.patientId) : undefined;
  const number = c.phoneNumberId ? sb.db.phoneNumbers.get(c.phoneNumberId) : undefined;
  return {
    id: c.id,
    organization_id: c.orgId,
    type: 'patient',
    title: c.title,
    patient: { id: c.patientId ?? '', name: patient ? patientName(patient) : '' },
    phone_number: { number: number?.number ?? '', team: number?.team ?? '' },
    channel: c.channel ?? 'secure',
    created_at: c.created_at,
    last_message_at: c.last_message_at,
    unread_count: extras.unreadCount ?? 0,
    // Always a timestamp (§2.4 types it so): never read by staff shows the conversation's start.
    seen_at: c.seen_at ?? c.created_at,
    messages_in_range: extras.messagesInRange ?? null,
    latest_message: extras.latest ?? null,
  };
}
