/**
 * `--seed-messages N`: a large synthetic history, written straight into the
 * store (no HTTP, no events, no delivery timers), for tests, demos and
 * benchmarks. A few hundred fictional patients in the first organization,
 * each with one to three conversations across both clinic numbers and both
 * channels; N messages spread over the last 90 days, in time order (seq
 * increases with created time), inbound and outbound, from staff and API
 * keys, with realistic bodies and some failed deliveries.
 *
 * Everything comes from a PRNG seeded by --seed: the same seed gives the same
 * ids, patients, bodies and order. Times are offsets from "now" at start-up.
 */
import type { SandboxContext } from '../context.js';
import type { Channel, DeliveryError, DeliveryStatus, SenderKind } from '../../contract/api.js';
import type { ConversationRecord, MessageRecord, PatientRecord, PhoneNumberRecord } from './records.js';

const DAY_MS = 24 * 3600 * 1000;
const SPAN_MS = 90 * DAY_MS;

/** mulberry32: tiny, fast, good enough to make data look varied. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const uuidBytes = new Uint8Array(16);

/** A version-4-shaped UUID from the PRNG (uuidv5 would hash 200,000 times). */
function uuidFrom(random: () => number): string {
  const b = uuidBytes;
  for (let i = 0; i < 16; i += 4) {
    const word = Math.floor(random() * 0x1_0000_0000);
    b[i] = word >>> 24;
    b[i + 1] = (word >>> 16) & 0xff;
    b[i + 2] = (word >>> 8) & 0xff;
    b[i + 3] = word & 0xff;
  }
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = (i: number) => BYTE_HEX[b[i]!]!;
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}

const FIRST = ['Maria', 'James', 'Aisha', 'Wei', 'Carlos', 'Priya', 'Noah', 'Fatima', 'Liam', 'Sofia', 'Mateo', 'Chloe',
  'Hiroshi', 'Amara', 'Ethan', 'Zoe', 'Omar', 'Hannah', 'Diego', 'Grace', 'Ivan', 'Leila', 'Samuel', 'Nina', 'Kofi',
  'Elena', 'Ravi', 'Isabel', 'Tomás', 'Yara', 'Ben', 'Mei', 'Lucas', 'Ana', 'Jonah', 'Rosa', 'Emeka', 'Clara', 'Sven', 'Julia'];
const LAST = ['Alvarez', 'Nguyen', 'Okafor', 'Smith', 'Kowalski', 'Haddad', 'Patel', 'Johnson', 'Rossi', 'Kim', 'Müller',
  'Garcia', 'Brown', 'Chen', 'Silva', 'Novak', 'Williams', 'Tanaka', 'Dubois', 'Martin', 'Osei', 'Larsen', 'Cohen', 'Reyes',
  'Singh', 'Walsh', 'Ibrahim', 'Moreau', 'Lopez', 'Fischer'];
/** Fictional: 555-0100…0199 in real area codes, so no real handset is ever implied. */
const AREA_CODES = ['212', '312', '415', '617', '713', '206', '305', '404'];

const OUTBOUND = [
  'Hi {first}, this is a reminder of your appointment on {day} at {time}. Reply C to confirm or R to reschedule.',
  'Hi {first}, your lab results are ready. Please log in to the patient portal or call us to go over them.',
  '{first}, your prescription refill has been sent to your pharmacy.',
  'Good news {first}: Dr. {doctor} reviewed your results and everything looks normal.',
  'Hi {first}, we have an opening on {day} at {time}. Would you like it?',
  'Please remember to bring your insurance card and a photo ID to your visit on {day}.',
  'Hi {first}, it is time for your annual check-up. Reply to book, or call the front desk.',
  'Thanks {first}, you are all set for {day} at {time}.',
  'Your flu shot is due. We have walk-in hours every weekday from 8 to 11.',
  'Hi {first}, Dr. {doctor} would like to see you for a follow-up within two weeks.',
  'We received your message and a nurse will call you back this afternoon.',
  'Your referral to cardiology has been approved. They will contact you to schedule.',
  'Reminder: please fast for 12 hours before your blood draw on {day}.',
  'Hi {first}, your balance of ${amount} is due. You can pay online through the portal.',
];
const INBOUND = [
  'C', 'Confirmed, thank you!', 'Can I reschedule to next week?', 'Yes please, I will take it.',
  'What time is my appointment again?', 'Thanks!', 'I am running about 10 minutes late.',
  'Could you send the refill to the Walgreens on Main St instead?', 'Is Dr. {doctor} available on {day}?',
  'I still have a cough after the antibiotics, should I come in?', 'Got it, see you then.',
  'Can someone call me about my bill?', 'My new phone number is the same, just updating my email.',
  'Do I need to fast before the blood test?', 'R', 'Thank you so much for the quick reply 🙏',
  'I will be out of town until the 20th, can we move it?', 'Where do I park?',
];
const PLACEHOLDER = /\{(first|day|time|doctor|amount)\}/g;
const DOCTORS = ['Okafor', 'Lindqvist', 'Ramirez', 'Chen', 'Patel'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const TIMES = ['8:30 AM', '9:15 AM', '10:00 AM', '11:45 AM', '1:30 PM', '2:15 PM', '3:40 PM', '4:20 PM'];
const FAILURES: { status: DeliveryStatus; error: DeliveryError }[] = [
  { status: 'failed', error: { code: 'carrier_rejected', message: 'The carrier rejected the message.' } },
  { status: 'undelivered', error: { code: 'unreachable', message: 'The handset could not be reached.' } },
];

interface Sender {
  kind: SenderKind;
  id: string;
  name: string;
}

/** Messages seeded between two turns of the event loop (~50 ms of work). */
const SEED_TURN = 5_000;

/**
 * Seeds `count` messages, giving the event loop a turn every SEED_TURN of them: a million take
 * most of a minute, and in one synchronous loop Ctrl-C and SIGTERM did nothing all that time.
 * Stops (throws the signal's reason) at the first turn after `signal` aborts.
 */
export async function seedSyntheticMessages(sb: SandboxContext, count: number, signal?: AbortSignal): Promise<void> {
  const org = sb.db.orgs.values().next().value;
  if (!org) throw new Error('--seed-messages needs the seeded organization');
  const random = prng(Number(sb.options.seed) * 7919 + 17);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const numbers: PhoneNumberRecord[] = sb.db.phoneNumbers.filter((n) => n.orgId === org.id);
  const staff: Sender[] = [
    ...sb.db.users.filter((u) => u.orgId === org.id).map((u) => ({ kind: 'staff' as const, id: u.id, name: u.name })),
    ...sb.db.apiKeys.filter((k) => k.orgId === org.id).map((k) => ({ kind: 'api_key' as const, id: k.id, name: k.name })),
  ];
  const now = sb.clock.now();
  const start = now - SPAN_MS;

  const patientCount = Math.min(300, Math.max(10, Math.ceil(count / 20)));
  const patients: PatientRecord[] = [];
  for (let i = 0; i < patientCount; i++) {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[(i + Math.floor(i / FIRST.length)) % LAST.length]!;
    const phone = `+1${AREA_CODES[Math.floor(i / 100) % AREA_CODES.length]}55501${String(i % 100).padStart(2, '0')}`;
    const year = 1940 + Math.floor(random() * 65);
    patients.push(sb.db.patients.put({
      id: uuidFrom(random),
      orgId: org.id,
      first_name: first,
      last_name: last,
      date_of_birth: `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
      phone,
      email: random() < 0.6 ? `${first}.${last}${i}@example.com`.toLowerCase().normalize('NFD').replace(/[^\x00-\x7f]/g, '') : null,
      mrn: `S-${100000 + i}`,
      optedOutFrom: [],
      created_at: sb.clock.iso(start - DAY_MS),
      deleted_at: null,
    }));
  }

  // Conversations: every patient has one; some have a second or third on another number or channel.
  const conversations: ConversationRecord[] = [];
  const weights: number[] = [];
  for (const [i, patient] of patients.entries()) {
    const combos = numbers.flatMap((n) => (['secure', 'sms'] as Channel[]).map((channel) => ({ n, channel })));
    const howMany = random() < 0.6 ? 1 : random() < 0.7 ? 2 : 3;
    const offset = Math.floor(random() * combos.length);
    for (let k = 0; k < Math.min(howMany, combos.length); k++) {
      const { n, channel } = combos[(offset + k) % combos.length]!;
      conversations.push({
        id: uuidFrom(random),
        orgId: org.id,
        type: 'patient',
        title: `${patient.first_name} ${patient.last_name}`,
        created_at: '',
        participantIds: [],
        joinedAt: {},
        patientId: patient.id,
        phoneNumberId: n.id,
        channel,
        last_message_at: null,
        seen_at: null,
      });
      // Some patients write a lot, most a little: a long-tailed share of the traffic.
      weights.push(1 / Math.pow(1 + ((i * 37) % patients.length), 0.6));
    }
  }
  const cumulative: number[] = [];
  let total = 0;
  for (const w of weights) cumulative.push((total += w));
  const pickConversation = (): number => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const patientById = new Map(patients.map((p) => [p.id, p]));
  const lastOutbound = new Map<string, number>();
  const step = SPAN_MS / count;
  for (let i = 0; i < count; i++) {
    if (i % SEED_TURN === SEED_TURN - 1) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
    const createdMs = Math.floor(start + (i + random()) * step);
    const c = conversations[pickConversation()]!;
    const patient = patientById.get(c.patientId!)!;
    const inbound = random() < 0.35;
    const sender: Sender = inbound
      ? { kind: 'patient', id: patient.id, name: `${patient.first_name} ${patient.last_name}` }
      : pick(staff);
    const fill = (template: string) =>
      template.replace(PLACEHOLDER, (_, name: string) => {
        if (name === 'first') return patient.first_name;
        if (name === 'day') return pick(DAYS);
        if (name === 'time') return pick(TIMES);
        if (name === 'doctor') return pick(DOCTORS);
        return String(20 + Math.floor(random() * 300));
      });
    const created_at = new Date(createdMs).toISOString();
    const message: MessageRecord = {
      id: uuidFrom(random),
      seq: sb.store.nextSeq(),
      orgId: org.id,
      conversationId: c.id,
      senderId: sender.id,
      senderName: sender.name,
      senderKind: sender.kind,
      patientId: patient.id,
      channel: c.channel!,
      phoneNumberId: c.channel === 'sms' ? c.phoneNumberId : null,
      delivery: inbound ? null : deliveryOf(c.channel!, createdMs, now, random),
      campaignId: null,
      created_at,
      createdMs,
      edited_at: null,
      body: fill(inbound ? pick(INBOUND) : pick(OUTBOUND)),
      replyToId: null,
      sentVia: null,
    };
    sb.db.messages.insertOnly(message);
    if (!c.created_at) c.created_at = created_at;
    c.last_message_at = created_at;
    if (!inbound) lastOutbound.set(c.id, createdMs);
  }

  for (const c of conversations) {
    if (!c.created_at) continue; // never picked: no messages, no conversation
    // Staff have read most conversations up to their last reply; the rest have unread patient messages.
    const replied = lastOutbound.get(c.id);
    c.seen_at = random() < 0.7 ? c.last_message_at : replied !== undefined ? new Date(replied).toISOString() : null;
    sb.db.conversations.put(c);
  }
  sb.store.changed();
}

function deliveryOf(channel: Channel, createdMs: number, now: number, random: () => number): MessageRecord['delivery'] {
  const updated = (afterMs: number) => new Date(Math.min(now, createdMs + afterMs)).toISOString();
  if (now - createdMs < 60_000) return { status: 'sent', error: null, updated_at: updated(300) };
  if (random() < 0.03) {
    const failure = FAILURES[random() < 0.6 ? 0 : 1]!;
    return { status: failure.status, error: { ...failure.error }, updated_at: updated(1000) };
  }
  // A secure message stops at "opened": left at "delivered", the delivery worker would move every one of them on start-up.
  const opened = channel === 'secure';
  return { status: opened ? 'opened' : 'delivered', error: null, updated_at: updated(opened ? 3_600_000 : 1000) };
}
