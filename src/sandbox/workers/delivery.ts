/**
 * Simulated delivery of outbound patient messages (docs/sandbox.md "Test
 * phone numbers"): queued → sent (~300 ms) → delivered (~1 s) → opened (~3 s,
 * secure only), or failed / undelivered for the reserved test numbers.
 * Timings are sandbox time through sb.later, so --time-scale speeds them up.
 */
import type { DeliveryError, DeliveryStatus } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { MessageRecord } from '../domain/records.js';

export const DELIVERY_TIMINGS_MS = { sent: 300, delivered: 1000, opened: 3000 } as const;

/** Recipient phones whose messages never arrive, and why. */
export const FAILING_NUMBERS: Record<string, { status: 'failed' | 'undelivered'; error: DeliveryError }> = {
  '+15555550190': { status: 'failed', error: { code: 'carrier_rejected', message: 'The carrier rejected the message.' } },
  '+15555550191': { status: 'undelivered', error: { code: 'unreachable', message: 'The handset could not be reached.' } },
};

/** Changes a message's delivery status, then tells subscribers (campaign counts, webhooks). */
export function setDelivery(sb: SandboxContext, message: MessageRecord, status: DeliveryStatus, error: DeliveryError | null = null): void {
  message.delivery = { status, error, updated_at: sb.clock.iso() };
  sb.db.messages.put(message);
  sb.store.changed();
  sb.events.emit('message.delivery', message);
}

/** The next step for a message in `status`, or null when it has arrived where it stops. */
function nextStep(sb: SandboxContext, message: MessageRecord): { afterMs: number; run: () => void } | null {
  const status = message.delivery?.status;
  const since = message.createdMs;
  const at = (ms: number) => Math.max(0, since + ms - sb.clock.now());
  if (status === 'queued') return { afterMs: at(DELIVERY_TIMINGS_MS.sent), run: () => setDelivery(sb, message, 'sent') };
  if (status === 'sent') {
    return {
      afterMs: at(DELIVERY_TIMINGS_MS.delivered),
      run: () => {
        const phone = message.patientId ? sb.db.patients.get(message.patientId)?.phone : undefined;
        const failure = phone ? FAILING_NUMBERS[phone] : undefined;
        // A secure link to a patient with an email only goes by email, which the test phones do not affect.
        const byEmailOnly = message.channel === 'secure' && !phone;
        if (failure && !byEmailOnly) setDelivery(sb, message, failure.status, failure.error);
        else setDelivery(sb, message, 'delivered');
      },
    };
  }
  if (status === 'delivered' && message.channel === 'secure') {
    return { afterMs: at(DELIVERY_TIMINGS_MS.opened), run: () => setDelivery(sb, message, 'opened') };
  }
  return null;
}

function schedule(sb: SandboxContext, message: MessageRecord): void {
  const step = nextStep(sb, message);
  if (!step) return;
  const expected = message.delivery?.status;
  sb.later(step.afterMs, () => {
    const current = sb.db.messages.get(message.id);
    // Skip if the message is gone or something else already moved it on.
    if (!current || current.delivery?.status !== expected) return;
    // The record read now, not the one this timer was set with: records are rows, re-read after a wait.
    nextStep(sb, current)?.run();
    schedule(sb, current);
  });
}

export function startDeliveryWorker(sb: SandboxContext): () => void {
  const onCreated = (message: MessageRecord) => {
    if (message.delivery?.status === 'queued') schedule(sb, message);
  };
  sb.events.on('message.created', onCreated);
  // Messages left in flight by a previous run (--data) carry on where they were.
  // Only messages with a step left: an sms stops at delivered, a secure message at opened.
  // Each condition alone is a range of the in_flight index (an OR of them would scan the table).
  const inFlight = [
    ...sb.db.messages.where("delivery_status IN ('queued', 'sent')", [], 'created_ms, id'),
    ...sb.db.messages.where("delivery_status = 'delivered' AND channel = 'secure'", [], 'created_ms, id'),
  ];
  for (const message of inFlight) {
    if (message.delivery && message.senderKind !== 'patient') schedule(sb, message);
  }
  return () => sb.events.off('message.created', onCreated);
}
