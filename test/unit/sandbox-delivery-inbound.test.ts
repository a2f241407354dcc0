import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxStore } from '../../src/sandbox/store/store.js';
import { Clock } from '../../src/sandbox/clock.js';
import { SandboxContext } from '../../src/sandbox/context.js';
import { seedWorld, type SeededCredentials } from '../../src/sandbox/seed.js';
import { findPrincipal } from '../../src/sandbox/domain/principal.js';
import { sendPatientMessage, senderFromPrincipal } from '../../src/sandbox/domain/patient-messages.js';
import { optKeyword, receiveInbound } from '../../src/sandbox/domain/inbound.js';
import { startDeliveryWorker } from '../../src/sandbox/workers/delivery.js';
import type { MessageRecord } from '../../src/sandbox/domain/records.js';
import { patientView } from '../../src/sandbox/domain/views.js';

let sb: SandboxContext;
let creds: SeededCredentials;
let stop: () => void;
beforeEach(() => {
  // 1 sandbox second = 10 real ms.
  sb = new SandboxContext(new SandboxStore(), new Clock(0.01), { port: 0, seed: 1, rateLimit: 0, timeScale: 0.01 });
  creds = seedWorld(sb);
  stop = startDeliveryWorker(sb);
});
afterEach(() => {
  stop();
  sb.cancelTimers();
});
const patient = (first: string) => sb.db.patients.find((p) => p.first_name === first && p.orgId === creds.organization_id)!;
const send = (body: object) => sendPatientMessage(sb, senderFromPrincipal(findPrincipal(sb, creds.api_key)!), body).record;
const frontDesk = () => sb.db.phoneNumbers.find((n) => n.number === '+15555550100')!;

/** Resolves with the delivery statuses a message went through once it reaches `final`. */
function statuses(message: MessageRecord, final: string): Promise<string[]> {
  const seen: string[] = [];
  return new Promise((resolve) => {
    sb.events.on('message.delivery', (m: MessageRecord) => {
      if (m.id !== message.id) return;
      seen.push(m.delivery!.status);
      if (m.delivery!.status === final) resolve(seen);
    });
  });
}

describe('simulated delivery', () => {
  it('takes a secure message through sent, delivered and opened', async () => {
    const m = send({ to: { patient_id: patient('Ada').id }, body: 'x' });
    expect(await statuses(m, 'opened')).toEqual(['sent', 'delivered', 'opened']);
    expect(sb.db.messages.get(m.id)!.delivery).toMatchObject({ status: 'opened', error: null });
  });

  it('stops an sms at delivered', async () => {
    const m = send({ to: { patient_id: patient('Ada').id }, body: 'x', channel: 'sms' });
    expect(await statuses(m, 'delivered')).toEqual(['sent', 'delivered']);
    await new Promise((r) => setTimeout(r, 60));
    expect(sb.db.messages.get(m.id)!.delivery!.status).toBe('delivered');
  });

  it('fails for +15555550190 and is undelivered for +15555550191, with error codes', async () => {
    const failed = send({ to: { phone: '+15555550190' }, body: 'x', channel: 'sms' });
    const lost = send({ to: { phone: '+15555550191' }, body: 'x' });
    const [a, b] = await Promise.all([statuses(failed, 'failed'), statuses(lost, 'undelivered')]);
    expect(a).toEqual(['sent', 'failed']);
    expect(b).toEqual(['sent', 'undelivered']);
    expect(sb.db.messages.get(failed.id)!.delivery!.error).toMatchObject({ code: 'carrier_rejected' });
    expect(sb.db.messages.get(lost.id)!.delivery!.error).toMatchObject({ code: 'unreachable' });
  });
});

describe('inbound replies', () => {
  it('recognises only whole-body keywords, any case', () => {
    expect(optKeyword('  Stop ')).toBe('stop');
    expect(optKeyword('UNSUBSCRIBE')).toBe('stop');
    expect(optKeyword('yes')).toBe('start');
    expect(optKeyword('please stop')).toBeNull();
  });

  it('stores a patient-side, unread sms in the patient\'s conversation, without delivery', () => {
    const sent = send({ to: { patient_id: patient('Grace').id }, body: 'x', channel: 'sms' });
    const reply = receiveInbound(sb, frontDesk(), '+15555550124', 'Thanks');
    expect(reply).toMatchObject({ senderKind: 'patient', senderId: patient('Grace').id, senderName: 'Grace Hopper', delivery: null });
    expect(reply.conversationId).toBe(sent.conversationId);
  });

  it('STOP opts out every patient on that phone from that number, START opts back in, with events', () => {
    const events: string[] = [];
    sb.events.on('patient.opt_out', (e: { patient: { first_name: string }; number: string }) => events.push(`out ${e.patient.first_name} ${e.number}`));
    sb.events.on('patient.opt_in', (e: { patient: { first_name: string } }) => events.push(`in ${e.patient.first_name}`));
    receiveInbound(sb, frontDesk(), '+15555550150', 'STOP');
    expect(patient('Alex').optedOutFrom).toEqual(['+15555550100']);
    expect(patientView(sb, patient('Jamie')).sms_opted_out).toBe(true);
    receiveInbound(sb, frontDesk(), '+15555550150', 'start');
    expect(patient('Jamie').optedOutFrom).toEqual([]);
    expect(events.sort()).toEqual(['in Alex', 'in Jamie', 'out Alex +15555550100', 'out Jamie +15555550100']);
  });

  it('creates a nameless patient for an unknown phone', () => {
    const reply = receiveInbound(sb, frontDesk(), '+15555550177', 'Who is this?');
    expect(sb.db.patients.get(reply.senderId)).toMatchObject({ phone: '+15555550177', first_name: '' });
    expect(reply.senderName).toBe('+15555550177');
  });
});
