/**
 * A patient texting a clinic number (the sandbox plays the phone network):
 * the reply lands in the patient's sms conversation on that number, and
 * STOP / START words change the opt-out state (api-spec §2.3 sms_opted_out,
 * §7.3 patient_opted_out). Choices are written down in docs/sandbox.md.
 */
import type { SandboxContext } from '../context.js';
import type { MessageRecord, PatientRecord, PhoneNumberRecord } from './records.js';
import { patientName } from './views.js';
import { createPatient, patientsByPhone } from './patients.js';
import { findOrStartConversation, storeMessage } from './patient-messages.js';

/** Payload of the 'patient.opt_out' and 'patient.opt_in' events; `number` is the clinic number (E.164). */
export interface OptEvent {
  patient: PatientRecord;
  number: string;
}

const STOP_WORDS = new Set(['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit']);
const START_WORDS = new Set(['start', 'unstop', 'yes']);

/** 'stop', 'start' or null: the whole trimmed body must be the keyword, in any case. */
export function optKeyword(body: string): 'stop' | 'start' | null {
  const word = body.trim().toLowerCase();
  if (STOP_WORDS.has(word)) return 'stop';
  if (START_WORDS.has(word)) return 'start';
  return null;
}

/**
 * Which patient a text from `phone` belongs to. Several patients can share a
 * phone: the one with the latest sms conversation on this number wins (it is
 * the one staff were texting), else the oldest record. An unknown phone
 * becomes a new nameless patient, as a real inbox would show it.
 */
function senderPatient(sb: SandboxContext, number: PhoneNumberRecord, phone: string): PatientRecord {
  const candidates = patientsByPhone(sb, number.orgId, phone);
  if (candidates.length === 0) return createPatient(sb, number.orgId, { phone });
  let best: PatientRecord = candidates[0]!;
  let bestAt = '';
  for (const p of candidates) {
    for (const c of sb.db.conversations.where("patient_id = ? AND phone_number_id = ? AND channel = 'sms'", [p.id, number.id])) {
      if ((c.last_message_at ?? '') > bestAt) {
        best = p;
        bestAt = c.last_message_at ?? '';
      }
    }
  }
  return best;
}

/**
 * Stores an inbound text and applies STOP/START. Opt-out follows the phone
 * (carriers block the number, not a person), so every patient sharing the
 * phone is opted out of (or back into) that clinic number.
 */
export function receiveInbound(sb: SandboxContext, number: PhoneNumberRecord, phone: string, body: string): MessageRecord {
  const patient = senderPatient(sb, number, phone);
  const { conversation } = findOrStartConversation(sb, patient, number, 'sms');
  const record = storeMessage(sb, conversation, {
    senderId: patient.id,
    senderName: patientName(patient),
    senderKind: 'patient',
    patientId: patient.id,
    channel: 'sms',
    phoneNumberId: number.id,
    delivery: null,
    campaignId: null,
    body,
    sentVia: null,
  });
  const keyword = optKeyword(body);
  if (keyword) {
    for (const p of patientsByPhone(sb, number.orgId, phone)) {
      const has = p.optedOutFrom.includes(number.number);
      if (keyword === 'stop' && !has) p.optedOutFrom = [...p.optedOutFrom, number.number];
      else if (keyword === 'start' && has) p.optedOutFrom = p.optedOutFrom.filter((n) => n !== number.number);
      else continue;
      sb.db.patients.put(p);
      sb.store.changed();
      const event: OptEvent = { patient: p, number: number.number };
      sb.events.emit(keyword === 'stop' ? 'patient.opt_out' : 'patient.opt_in', event);
    }
  }
  return record;
}
