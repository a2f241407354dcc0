/**
 * The campaign sender: for each running campaign, one message per pending
 * recipient in send order, through the same sendPatientMessage as
 * POST /patient-messages, one "slot" every send_interval_seconds (sandbox
 * time, so --time-scale speeds it up).
 *
 * A slot: the recipient turns `sending`; a moment later (HANDOFF_MS, at most
 * half the interval) its message is handed off and the recipient becomes
 * sent, skipped or failed; the next slot starts one interval after this one
 * began (a PATCHed interval applies to the wait in progress). Pause only stops the next slot from starting, so the message in
 * progress always completes; stop cancels the `sending` recipient, and the
 * hand-off then finds nothing to send. Delivery updates ('message.delivery')
 * move sent recipients on to delivered/opened or failed/undelivered.
 */
import type { DeliveryStatus, RecipientStatus } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { MessageRecord } from '../domain/records.js';
import { ProblemError } from '../problem.js';
import { sendPatientMessage } from '../domain/patient-messages.js';
import {
  campaignTable,
  completeIfDone,
  recipientOf,
  recipientsOf,
  setRecipientStatus,
  type CampaignRecipientRecord,
  type CampaignRecord,
} from '../domain/campaigns.js';

/** How long a recipient shows `sending` before its message leaves (sandbox ms). */
export const HANDOFF_MS = 200;

/** Send refusals that mean "this patient cannot be reached", not a fault: the recipient is skipped. */
const SKIP_CODES = new Set(['patient_opted_out', 'no_contact_method']);

const RECIPIENT_STATUS_FOR_DELIVERY: Record<DeliveryStatus, RecipientStatus> = {
  queued: 'sent',
  sent: 'sent',
  delivered: 'delivered',
  opened: 'opened',
  failed: 'failed',
  undelivered: 'undelivered',
};

/** The slot a campaign is in: from its recipient turning `sending` until the next slot may begin. */
interface Slot {
  /** performance.now() when the slot began (real ms: timers are scaled, the clock is not). */
  startedReal: number;
  handedOff: boolean;
  /** Bumped whenever the end of the slot is rescheduled, so a superseded timer does nothing. */
  generation: number;
}

export function startCampaignSender(sb: SandboxContext): () => void {
  const slots = new Map<string, Slot>();

  const kick = (id: string) => {
    if (slots.has(id)) return; // the slot in progress starts the next one when it ends
    const c = campaignTable(sb).get(id);
    if (c?.status !== 'running') return;
    const next = recipientsOf(sb, id).find((r) => r.status === 'pending');
    if (!next) {
      completeIfDone(sb, c);
      return;
    }
    const slot: Slot = { startedReal: performance.now(), handedOff: false, generation: 0 };
    slots.set(id, slot);
    setRecipientStatus(sb, next, 'sending');
    sb.store.changed();
    sb.later(Math.min(HANDOFF_MS, (c.send_interval_seconds * 1000) / 2), () => {
      try {
        handOff(sb, id, next);
      } finally {
        slot.handedOff = true;
        scheduleSlotEnd(id, slot);
      }
    });
  };

  /** The next slot begins one interval (the current one, which PATCH may change) after this one began. */
  const scheduleSlotEnd = (id: string, slot: Slot) => {
    const generation = ++slot.generation;
    const intervalReal = sb.clock.scaled((campaignTable(sb).get(id)?.send_interval_seconds ?? 0) * 1000);
    const remainingReal = Math.max(0, slot.startedReal + intervalReal - performance.now());
    const scale = sb.clock.timeScale;
    sb.later(scale > 0 ? remainingReal / scale : 0, () => {
      if (slot.generation !== generation) return;
      slots.delete(id);
      kick(id);
    });
  };

  const onStarted = (c: CampaignRecord) => kick(c.id);
  const onIntervalChanged = (c: CampaignRecord) => {
    const slot = slots.get(c.id);
    if (slot?.handedOff) scheduleSlotEnd(c.id, slot);
  };
  const onDelivery = (m: MessageRecord) => {
    if (!m.campaignId || !m.patientId || !m.delivery) return;
    const r = recipientOf(sb, m.campaignId, m.patientId);
    if (r && r.messageId === m.id) followDelivery(sb, r, m);
  };
  sb.events.on('campaign.started', onStarted);
  sb.events.on('campaign.interval_changed', onIntervalChanged);
  sb.events.on('message.delivery', onDelivery);

  resumeAfterRestart(sb);
  for (const c of campaignTable(sb).values()) if (c.status === 'running') kick(c.id);

  return () => {
    sb.events.off('campaign.started', onStarted);
    sb.events.off('campaign.interval_changed', onIntervalChanged);
    sb.events.off('message.delivery', onDelivery);
  };
}

/** Sends the recipient's message unless stop cancelled it meanwhile; completes the campaign after the last one. */
function handOff(sb: SandboxContext, campaignId: string, held: CampaignRecipientRecord): void {
  const c = campaignTable(sb).get(campaignId);
  // Re-read after the hand-off wait: records are database rows, not objects kept between turns.
  const current = recipientOf(sb, campaignId, held.patientId);
  if (!c || !current || current.status !== 'sending') return;
  const r = current;
  const number = sb.db.phoneNumbers.get(c.phoneNumberId);
  try {
    const { record } = sendPatientMessage(
      sb,
      c.sender,
      { to: { patient_id: r.patientId }, body: c.body, channel: c.channel, from: number?.number },
      { campaignId: c.id },
    );
    setRecipientStatus(sb, r, 'sent', { messageId: record.id, error: null });
    followDelivery(sb, r, record);
  } catch (err) {
    const problem = err instanceof ProblemError ? err : null;
    const error = problem
      ? { code: problem.code, message: problem.detail ?? problem.code }
      : { code: 'internal_error', message: 'The sandbox could not send this message.' };
    if (!problem) sb.options.log?.(`campaign ${c.id}: send failed: ${(err as Error).stack}`);
    setRecipientStatus(sb, r, problem && SKIP_CODES.has(problem.code) ? 'skipped' : 'failed', { error });
  }
  sb.store.changed();
  completeIfDone(sb, c);
}

/** Mirrors a campaign message's delivery status on its recipient. */
function followDelivery(sb: SandboxContext, r: CampaignRecipientRecord, m: MessageRecord): void {
  if (!m.delivery) return;
  const status = RECIPIENT_STATUS_FOR_DELIVERY[m.delivery.status];
  if (status === r.status) return;
  setRecipientStatus(sb, r, status, { error: m.delivery.error ? { ...m.delivery.error } : null });
  sb.store.changed();
}

/**
 * After a restart from --data: a recipient left `sending` never had its
 * message handed off (hand-off and the status change happen together), so it
 * is pending again; sent recipients catch up with deliveries they missed.
 */
function resumeAfterRestart(sb: SandboxContext): void {
  for (const c of campaignTable(sb).values()) {
    for (const r of recipientsOf(sb, c.id)) {
      if (r.status === 'sending') setRecipientStatus(sb, r, 'pending');
      else if (r.messageId) {
        const m = sb.db.messages.get(r.messageId);
        if (m) followDelivery(sb, r, m);
      }
    }
  }
  sb.store.changed();
}
