/**
 * Patient conversations and messages at chosen times, written straight into a
 * sandbox's store (the API only ever sends "now"), for the traffic tests.
 */
import type { SandboxContext } from '../../src/sandbox/context.js';
import type { ConversationRecord, MessageRecord } from '../../src/sandbox/domain/records.js';
import type { Channel, DeliveryStatus } from '../../src/contract/api.js';

export type From = 'patient' | { kind: 'staff' | 'api_key'; id: string; name: string };

export function patientByMrn(sb: SandboxContext, mrn: string) {
  const p = sb.db.patients.find((x) => x.mrn === mrn);
  if (!p) throw new Error(`no seeded patient ${mrn}`);
  return p;
}

export function numberOf(sb: SandboxContext, e164: string) {
  const n = sb.db.phoneNumbers.find((x) => x.number === e164);
  if (!n) throw new Error(`no clinic number ${e164}`);
  return n;
}

export function staffSender(sb: SandboxContext, email: string): From {
  const u = sb.db.users.find((x) => x.email === email)!;
  return { kind: 'staff', id: u.id, name: u.name };
}

export function keySender(sb: SandboxContext, name: string): From {
  const k = sb.db.apiKeys.find((x) => x.name === name)!;
  return { kind: 'api_key', id: k.id, name: k.name };
}

export function addConversation(sb: SandboxContext, patientMrn: string, number: string, channel: Channel): ConversationRecord {
  const patient = patientByMrn(sb, patientMrn);
  const phone = numberOf(sb, number);
  const c = sb.db.conversations.insert({
    id: sb.newId(),
    orgId: patient.orgId,
    type: 'patient',
    title: `${patient.first_name} ${patient.last_name}`,
    created_at: '2026-01-01T00:00:00.000Z',
    participantIds: [],
    joinedAt: {},
    patientId: patient.id,
    phoneNumberId: phone.id,
    channel,
    last_message_at: null,
    seen_at: null,
  });
  sb.store.changed();
  return c;
}

export function addMessage(
  sb: SandboxContext,
  c: ConversationRecord,
  options: { at?: string | number; from: From; body: string; status?: DeliveryStatus },
): MessageRecord {
  const createdMs = options.at === undefined ? sb.clock.now() : typeof options.at === 'number' ? options.at : Date.parse(options.at);
  const created_at = new Date(createdMs).toISOString();
  const patient = sb.db.patients.get(c.patientId!)!;
  const from = options.from;
  const m = sb.db.messages.insert({
    id: sb.newId(),
    seq: sb.store.nextSeq(),
    orgId: c.orgId,
    conversationId: c.id,
    senderId: from === 'patient' ? patient.id : from.id,
    senderName: from === 'patient' ? `${patient.first_name} ${patient.last_name}` : from.name,
    senderKind: from === 'patient' ? 'patient' : from.kind,
    patientId: patient.id,
    channel: c.channel!,
    phoneNumberId: c.channel === 'sms' ? c.phoneNumberId : null,
    delivery: from === 'patient' ? null : { status: options.status ?? 'delivered', error: null, updated_at: created_at },
    campaignId: null,
    created_at,
    createdMs,
    edited_at: null,
    body: options.body,
    replyToId: null,
    sentVia: null,
  });
  if (!c.last_message_at || c.last_message_at < created_at) c.last_message_at = created_at;
  sb.store.changed();
  return m;
}

export const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
