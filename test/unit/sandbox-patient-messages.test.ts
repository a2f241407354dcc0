import { beforeEach, describe, expect, it } from 'vitest';
import { SandboxStore } from '../../src/sandbox/store/store.js';
import { Clock } from '../../src/sandbox/clock.js';
import { SandboxContext } from '../../src/sandbox/context.js';
import { seedWorld, type SeededCredentials } from '../../src/sandbox/seed.js';
import { findPrincipal } from '../../src/sandbox/domain/principal.js';
import { ProblemError } from '../../src/sandbox/problem.js';
import { sendPatientMessage, senderFromPrincipal, type MessageSender } from '../../src/sandbox/domain/patient-messages.js';
import type { MessageRecord } from '../../src/sandbox/domain/records.js';

let sb: SandboxContext;
let creds: SeededCredentials;
let key: MessageSender;
beforeEach(() => {
  sb = new SandboxContext(new SandboxStore(), new Clock(1), { port: 0, seed: 1, rateLimit: 0, timeScale: 1 });
  creds = seedWorld(sb);
  key = senderFromPrincipal(findPrincipal(sb, creds.api_key)!);
});
const patient = (first: string) => sb.db.patients.find((p) => p.first_name === first && p.orgId === creds.organization_id)!;

/** The problem a send throws, as { status, code, … }. */
function refusal(body: unknown, sender = key): ProblemError {
  try {
    sendPatientMessage(sb, sender, body);
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('the send was accepted');
}

describe('sendPatientMessage', () => {
  it('sends secure by default from the key\'s default number, in a new conversation, and emits message.created', () => {
    const seen: MessageRecord[] = [];
    sb.events.on('message.created', (m: MessageRecord) => seen.push(m));
    const { response, record } = sendPatientMessage(sb, key, { to: { patient_id: patient('Ada').id }, body: 'Hello' });
    expect(response).toMatchObject({ patient_created: false, conversation_created: true });
    expect(response.message).toMatchObject({
      channel: 'secure', phone_number: null, body: 'Hello', campaign_id: null, sent_via: null, unread: false,
      sender: { kind: 'api_key', name: 'Sandbox full access' }, delivery: { status: 'queued', error: null },
      patient: { id: patient('Ada').id, name: 'Ada Lovelace' },
    });
    expect(seen).toEqual([record]);
    const again = sendPatientMessage(sb, key, { to: { phone: '555-555-0123' }, body: 'Again' });
    expect(again.response.conversation_created).toBe(false);
    expect(again.record.conversationId).toBe(record.conversationId);
  });

  it('keeps sms and secure in separate conversations and shows the number on sms', () => {
    const secure = sendPatientMessage(sb, key, { to: { patient_id: patient('Ada').id }, body: 'a' });
    const sms = sendPatientMessage(sb, key, { to: { patient_id: patient('Ada').id }, body: 'b', channel: 'sms', from: '+15555550110' });
    expect(sms.response.conversation_created).toBe(true);
    expect(sms.record.conversationId).not.toBe(secure.record.conversationId);
    expect(sms.response.message.phone_number).toEqual({ number: '+15555550110', team: 'Recalls' });
  });

  it('creates a patient for an unknown phone from the patient details', () => {
    const { response } = sendPatientMessage(sb, key, {
      to: { phone: '+1 555 555 0177' }, body: 'Hi', patient: { first_name: 'New', last_name: 'Person', mrn: 'N-1', date_of_birth: '1990-01-02' },
    });
    expect(response.patient_created).toBe(true);
    expect(patient('New')).toMatchObject({ phone: '+15555550177', mrn: 'N-1', date_of_birth: '1990-01-02' });
  });

  it('uses patient.mrn to pick among patients sharing a phone, else 409 with candidates', () => {
    const picked = sendPatientMessage(sb, key, { to: { phone: '+15555550150' }, body: 'x', patient: { mrn: 'A-2002' } });
    expect(picked.response.message.patient?.name).toBe('Jamie Rivera');
    const err = refusal({ to: { phone: '+15555550150' }, body: 'x' });
    expect(err).toMatchObject({ status: 409, code: 'ambiguous_recipient' });
    expect((err.extensions.candidates as { name: string; mrn: string }[]).map((c) => c.mrn).sort()).toEqual(['A-2001', 'A-2002']);
  });

  it('answers every refusal of §4.4 with its status and code, storing nothing', () => {
    const count = sb.db.messages.size;
    const patients = sb.db.patients.size;
    const cases: [unknown, number, string][] = [
      [{ to: {}, body: 'x' }, 422, 'validation_failed'],
      [{ to: { phone: '+15555550123', patient_id: patient('Ada').id }, body: 'x' }, 422, 'validation_failed'],
      [{ to: { phone: '+15555550999' }, body: '  ' }, 422, 'validation_failed'],
      [{ to: { phone: '+15555550999' }, body: 'x'.repeat(1601) }, 422, 'validation_failed'],
      [{ to: { phone: '+15555550999' }, body: 'x', channel: 'fax' }, 422, 'validation_failed'],
      [{ to: { phone: '+15555550999' }, body: 'x', from: '5555550100' }, 422, 'validation_failed'],
      [{ to: { patient_id: '00000000-0000-4000-8000-000000000000' }, body: 'x' }, 404, 'not_found'],
      [{ to: { patient_id: patient('Ada').id }, body: 'x', from: '+15555550200' }, 404, 'not_found'],
      [{ to: { patient_id: patient('Emma').id }, body: 'x', channel: 'sms' }, 422, 'no_contact_method'],
      [{ to: { patient_id: patient('Olive').id }, body: 'x', channel: 'sms' }, 422, 'patient_opted_out'],
      [{ to: { patient_id: patient('Olive').id }, body: 'x' }, 422, 'patient_opted_out'],
      [{ to: { phone: '+15555550999' }, body: 'x', patient: { date_of_birth: '1990-13-01' } }, 422, 'validation_failed'],
    ];
    for (const [body, status, code] of cases) expect(refusal(body), JSON.stringify(body).slice(0, 80)).toMatchObject({ status, code });
    expect(sb.db.messages.size).toBe(count);
    expect(sb.db.patients.size).toBe(patients);
  });

  it('counts the 1,600 limit in code points, with a too_long field error at /body', () => {
    const emoji = '😀'.repeat(1600);
    expect(sendPatientMessage(sb, key, { to: { patient_id: patient('Ada').id }, body: emoji }).record.body).toBe(emoji);
    expect(refusal({ to: { patient_id: patient('Ada').id }, body: emoji + 'x' }).fieldErrors).toEqual([
      expect.objectContaining({ path: '/body', code: 'too_long' }),
    ]);
  });

  it('lets an opted-out patient with an email get a secure message, and sms from another number', () => {
    patient('Olive').email = 'olive@example.com';
    expect(sendPatientMessage(sb, key, { to: { patient_id: patient('Olive').id }, body: 'x' }).record.channel).toBe('secure');
    expect(sendPatientMessage(sb, key, { to: { patient_id: patient('Olive').id }, body: 'x', channel: 'sms', from: '+15555550110' }).record.channel).toBe('sms');
  });

  it('needs from when the sender has no default and the organization has several numbers', () => {
    const noDefault = { ...key, defaultPhoneNumberId: null };
    expect(refusal({ to: { patient_id: patient('Ada').id }, body: 'x' }, noDefault)).toMatchObject({ status: 422, code: 'from_required' });
    expect(sendPatientMessage(sb, noDefault, { to: { patient_id: patient('Ada').id }, body: 'x', from: '+15555550110' }).record).toBeTruthy();
  });

  it('sends as the admin through OAuth: staff kind, app label, conversation marked read', () => {
    const admin = sb.db.users.find((u) => u.role === 'admin' && u.orgId === creds.organization_id)!;
    const sender: MessageSender = { kind: 'staff', id: admin.id, name: admin.name, orgId: admin.orgId, userId: admin.id, defaultPhoneNumberId: admin.defaultPhoneNumberId, viaApp: 'msgctl CLI' };
    const { response, record } = sendPatientMessage(sb, sender, { to: { patient_id: patient('Grace').id }, body: 'x' }, { campaignId: 'c1' });
    expect(response.message).toMatchObject({ sender: { kind: 'staff', name: 'Dana Admin', id: admin.id }, sent_via: 'msgctl CLI', campaign_id: 'c1' });
    // Read up to and including its own message.
    expect(sb.db.conversations.get(record.conversationId)!.seen_at).toBe(record.created_at);
  });
});
