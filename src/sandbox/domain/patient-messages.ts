/**
 * Sending a message to a patient (api-spec §4.4): every rule and error of
 * POST /patient-messages, shared by the route and the campaign sender, plus
 * the conversation and message bookkeeping that inbound replies reuse.
 *
 * Check order: body shape (422 validation_failed), the clinic number (404 /
 * 422 from_required), the patient (404 / 409 ambiguous_recipient), contact
 * data (422 no_contact_method), opt-out (422 patient_opted_out). Nothing is
 * written until every check passed, so a refused send leaves no new patient
 * or conversation behind.
 */
import type { Channel, SendMessageResponse } from '../../contract/api.js';
import { LIMITS } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { Principal } from './principal.js';
import { FieldErrors, ProblemError, problems } from '../problem.js';
import { bodyLength } from '../validation/formats.js';
import { normalizePhone } from '../validation/phone.js';
import type { ConversationRecord, MessageRecord, PatientRecord, PhoneNumberRecord } from './records.js';
import { messageView, patientName } from './views.js';
import { createPatient, findPatient, patientsByPhone, validatePatientFields, type PatientFields } from './patients.js';
import { looksLikeUuid } from '../validation/formats.js';

export interface MessageSender {
  kind: 'api_key' | 'staff';
  /** Key id or admin user id (sender.id on the message). */
  id: string;
  name: string;
  orgId: string;
  userId: string | null;
  defaultPhoneNumberId: string | null;
  /** App name for OAuth sends (sent_via), null for API keys. */
  viaApp: string | null;
}

export function senderFromPrincipal(p: Principal): MessageSender {
  return {
    kind: p.kind === 'api_key' ? 'api_key' : 'staff',
    id: p.senderId,
    name: p.name,
    orgId: p.orgId,
    userId: p.userId,
    defaultPhoneNumberId: p.defaultPhoneNumberId,
    viaApp: p.app?.name ?? null,
  };
}

const E164 = /^\+[1-9]\d{6,14}$/;

interface ValidSend {
  to: { patientId: string } | { phone: string };
  details: PatientFields;
  body: string;
  channel: Channel;
  from: string | null;
}

/** Shape checks of the request body; throws one 422 listing every field error. */
function validateSendBody(raw: unknown): ValidSend {
  const errors = new FieldErrors();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.add('', 'invalid_type', 'The body must be a JSON object.');
    errors.throwIfAny();
  }
  const b = raw as Record<string, unknown>;

  let to: ValidSend['to'] | null = null;
  const rawTo = b.to;
  if (rawTo === undefined || rawTo === null) errors.add('/to', 'required', 'to is required: give to.patient_id or to.phone.');
  else if (typeof rawTo !== 'object' || Array.isArray(rawTo)) errors.add('/to', 'invalid_type', 'to must be an object.');
  else {
    const t = rawTo as Record<string, unknown>;
    const hasId = t.patient_id !== undefined && t.patient_id !== null;
    const hasPhone = t.phone !== undefined && t.phone !== null;
    if (hasId === hasPhone) errors.add('/to', 'invalid', 'to needs exactly one of patient_id or phone.');
    else if (hasId) {
      if (typeof t.patient_id === 'string' && looksLikeUuid(t.patient_id)) to = { patientId: t.patient_id.toLowerCase() };
      else errors.add('/to/patient_id', 'invalid', 'to.patient_id must be a UUID.');
    } else {
      const phone = typeof t.phone === 'string' ? normalizePhone(t.phone, 'US') : null;
      if (phone?.ok) to = { phone: phone.e164 };
      else errors.add('/to/phone', 'invalid', `to.phone is not a usable phone number${phone && !phone.ok ? `: ${phone.reason}` : ''}.`);
    }
  }

  let details: PatientFields = {};
  // One rule for null in a field the spec does not make nullable: 422 not_nullable (omit it instead).
  for (const field of ['patient', 'channel', 'from'] as const) {
    if (b[field] === null) errors.add(`/${field}`, 'not_nullable', `${field} cannot be null; leave it out for the default.`);
  }
  if (b.patient !== undefined && b.patient !== null) {
    if (typeof b.patient !== 'object' || Array.isArray(b.patient)) errors.add('/patient', 'invalid_type', 'patient must be an object.');
    else {
      // The send's patient details are a subset of a patient's fields; the phone comes from `to`.
      const given = { ...(b.patient as Record<string, unknown>) };
      delete given.phone;
      const checked = validatePatientFields(given, 'update');
      for (const e of checked.errors) errors.add(`/patient${e.path}`, e.code, `patient.${e.message}`);
      details = checked.fields;
    }
  }

  let body = '';
  if (b.body === undefined || b.body === null) errors.add('/body', 'required', 'body is required.');
  else if (typeof b.body !== 'string') errors.add('/body', 'invalid_type', 'body must be a string.');
  else if (!b.body.trim()) errors.add('/body', 'required', 'body must not be empty.');
  else if (bodyLength(b.body) > LIMITS.bodyMaxChars) {
    errors.add('/body', 'too_long', `body is ${bodyLength(b.body)} characters; the limit is ${LIMITS.bodyMaxChars}.`);
  } else body = b.body;

  let channel: Channel = 'secure';
  if (b.channel !== undefined && b.channel !== null) {
    if (b.channel === 'secure' || b.channel === 'sms') channel = b.channel;
    else errors.add('/channel', 'invalid', 'channel must be "secure" or "sms".');
  }

  let from: string | null = null;
  if (b.from !== undefined && b.from !== null) {
    if (typeof b.from === 'string' && E164.test(b.from)) from = b.from;
    else errors.add('/from', 'invalid', 'from must be a phone number in E.164 form, e.g. +15555550100.');
  }

  errors.throwIfAny();
  return { to: to!, details, body, channel, from };
}

/** The clinic number to send from: `from`, else the sender's default, else the org's only number. */
export function resolveFromNumber(sb: SandboxContext, sender: MessageSender, from: string | null): PhoneNumberRecord {
  const numbers = sb.db.phoneNumbers.filter((n) => n.orgId === sender.orgId);
  if (from) {
    const found = numbers.find((n) => n.number === from);
    if (!found) throw new ProblemError(404, 'not_found', `${from} is not one of the organization's phone numbers.`);
    return found;
  }
  const fallback = numbers.find((n) => n.id === sender.defaultPhoneNumberId) ?? (numbers.length === 1 ? numbers[0] : undefined);
  if (!fallback) {
    throw problems.unprocessable(
      'from_required',
      `The organization has ${numbers.length} phone numbers and this credential has no default; pass "from".`,
    );
  }
  return fallback;
}

/** The recipient, found (or, for an unknown phone, to be created) per §4.4. */
function resolvePatient(
  sb: SandboxContext,
  orgId: string,
  send: ValidSend,
): { patient: PatientRecord; create: false } | { create: true; fields: PatientFields } {
  if ('patientId' in send.to) {
    const patient = findPatient(sb, orgId, send.to.patientId);
    if (!patient) throw problems.notFound('Patient');
    return { patient, create: false };
  }
  const phone = send.to.phone;
  const candidates = patientsByPhone(sb, orgId, phone);
  if (candidates.length === 0) return { create: true, fields: { ...send.details, phone } };
  if (candidates.length === 1) return { patient: candidates[0]!, create: false };
  const mrn = send.details.mrn;
  const byMrn = mrn ? candidates.find((p) => p.mrn === mrn) : undefined;
  if (byMrn) return { patient: byMrn, create: false };
  throw problems.conflict(
    'ambiguous_recipient',
    mrn
      ? `${phone} belongs to ${candidates.length} patients and none has MRN ${mrn}; resend with to.patient_id.`
      : `${phone} belongs to ${candidates.length} patients; resend with to.patient_id or add patient.mrn.`,
    { candidates: candidates.map((p) => ({ id: p.id, name: patientName(p), mrn: p.mrn })) },
  );
}

/** What the channel needs: sms a phone; secure a phone (link by text) or an email (link by email). */
function checkReachable(patient: Pick<PatientRecord, 'phone' | 'email' | 'optedOutFrom'>, channel: Channel, number: PhoneNumberRecord): void {
  if (channel === 'sms' && !patient.phone) {
    throw problems.unprocessable('no_contact_method', 'The patient has no phone number, which sms needs.');
  }
  if (channel === 'secure' && !patient.phone && !patient.email) {
    throw problems.unprocessable('no_contact_method', 'The patient has neither a phone number nor an email, which secure needs.');
  }
  const optedOut = patient.optedOutFrom.includes(number.number);
  if (optedOut && channel === 'sms') {
    throw problems.unprocessable('patient_opted_out', `The patient replied STOP to ${number.number}; send secure by email or wait for START.`);
  }
  // A secure link would go by text from the same number, which the patient stopped; only email is left.
  if (optedOut && channel === 'secure' && !patient.email) {
    throw problems.unprocessable('patient_opted_out', `The patient replied STOP to ${number.number} and has no email for a secure link.`);
  }
}

/** The patient conversation for this patient, clinic number and channel (docs/sandbox.md). */
export function findConversation(sb: SandboxContext, patient: PatientRecord, number: PhoneNumberRecord, channel: Channel) {
  return sb.db.conversations
    .where('patient_id = ? AND phone_number_id = ? AND channel = ?', [patient.id, number.id, channel])
    .find((c) => c.type === 'patient');
}

export function findOrStartConversation(
  sb: SandboxContext,
  patient: PatientRecord,
  number: PhoneNumberRecord,
  channel: Channel,
): { conversation: ConversationRecord; created: boolean } {
  const existing = findConversation(sb, patient, number, channel);
  if (existing) return { conversation: existing, created: false };
  const conversation = sb.db.conversations.insert({
    id: sb.newId(),
    orgId: patient.orgId,
    type: 'patient',
    title: patientName(patient),
    created_at: sb.clock.iso(),
    participantIds: [],
    joinedAt: {},
    patientId: patient.id,
    phoneNumberId: number.id,
    channel,
    last_message_at: null,
    seen_at: null,
  });
  return { conversation, created: true };
}

/** Stores a message in a patient conversation, bumps the conversation, emits message.created. */
export function storeMessage(
  sb: SandboxContext,
  conversation: ConversationRecord,
  fields: Omit<MessageRecord, 'id' | 'seq' | 'orgId' | 'conversationId' | 'created_at' | 'createdMs' | 'edited_at' | 'replyToId'>,
): MessageRecord {
  const now = sb.clock.now();
  const record = sb.db.messages.insert({
    id: sb.newId(),
    seq: sb.store.nextSeq(),
    orgId: conversation.orgId,
    conversationId: conversation.id,
    created_at: sb.clock.iso(now),
    createdMs: now,
    edited_at: null,
    replyToId: null,
    ...fields,
  });
  conversation.last_message_at = record.created_at;
  sb.db.conversations.put(conversation);
  sb.store.changed();
  sb.events.emit('message.created', record);
  return record;
}

/**
 * Every rule and error of POST /patient-messages (§4.4). Throws ProblemError;
 * on success the message is stored (delivery queued) and message.created emitted.
 */
export function sendPatientMessage(
  sb: SandboxContext,
  sender: MessageSender,
  body: unknown,
  options: { campaignId?: string } = {},
): { response: SendMessageResponse; record: MessageRecord } {
  const send = validateSendBody(body);
  const number = resolveFromNumber(sb, sender, send.from);
  const resolved = resolvePatient(sb, sender.orgId, send);
  const target = resolved.create ? { phone: resolved.fields.phone ?? null, email: resolved.fields.email ?? null, optedOutFrom: [] } : resolved.patient;
  checkReachable(target, send.channel, number);

  const patient = resolved.create ? createPatient(sb, sender.orgId, resolved.fields) : resolved.patient;
  const { conversation, created: conversationCreated } = findOrStartConversation(sb, patient, number, send.channel);
  const now = sb.clock.iso();
  const record = storeMessage(sb, conversation, {
    senderId: sender.id,
    senderName: sender.name,
    senderKind: sender.kind,
    patientId: patient.id,
    channel: send.channel,
    // A secure message leaves through the service's link, not visibly from a clinic number (§2.2).
    phoneNumberId: send.channel === 'sms' ? number.id : null,
    delivery: { status: 'queued', error: null, updated_at: now },
    campaignId: options.campaignId ?? null,
    body: send.body,
    sentVia: sender.viaApp,
  });
  if (sender.kind === 'staff') {
    // Sending as the admin means they have seen the conversation (§4.4, "marked read"), their own message included.
    conversation.seen_at = record.created_at;
    sb.db.conversations.put(conversation);
  }
  return {
    record,
    response: { message: messageView(sb, record), patient_created: resolved.create, conversation_created: conversationCreated },
  };
}
