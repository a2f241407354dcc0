/**
 * Campaigns (api-spec §2.5, §2.6, §3.1, §4.6): the records, their API views,
 * and the state machine. Every rule a route enforces lives here so the
 * routes stay declarations and the sender worker shares the same checks.
 *
 * Counts are never stored: they are recounted from the recipient rows every
 * time a campaign is shown, so they cannot drift from the recipients list.
 * Design choices (statuses per operation, error codes) are in docs/campaigns.md.
 */
import type { Campaign, CampaignCounts, CampaignRecipient, CampaignStatus, Channel, RecipientStatus } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import { ProblemError, problems } from '../problem.js';
import type { MessageSender } from './patient-messages.js';
import { patientName } from './views.js';

export interface CampaignRecord {
  id: string;
  /** Creation order (list order, cursor key). */
  seq: number;
  orgId: string;
  name: string;
  status: CampaignStatus;
  channel: Channel;
  body: string;
  phoneNumberId: string;
  /** Who created it; every message of the campaign is sent as them. */
  sender: MessageSender;
  send_interval_seconds: number;
  archived: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface RecipientError {
  code: string;
  message: string;
}

export interface CampaignRecipientRecord {
  /** campaignId:patientId — a patient is on a campaign at most once. */
  id: string;
  campaignId: string;
  patientId: string;
  /** Send order: the order recipients were added in. */
  seq: number;
  status: RecipientStatus;
  messageId: string | null;
  error: RecipientError | null;
  updated_at: string;
}

export function campaignTable(sb: SandboxContext) {
  return sb.store.table<CampaignRecord>('campaigns');
}

function recipientTable(sb: SandboxContext) {
  return sb.store.table<CampaignRecipientRecord>('campaign_recipients');
}

/** A campaign's recipients in send order (through the campaign_recipients (campaign_id, seq) index). */
export function recipientsOf(sb: SandboxContext, campaignId: string): readonly CampaignRecipientRecord[] {
  return recipientTable(sb).where('campaign_id = ?', [campaignId], 'seq');
}

export function recipientOf(sb: SandboxContext, campaignId: string, patientId: string): CampaignRecipientRecord | undefined {
  return recipientTable(sb).get(`${campaignId}:${patientId}`);
}

export function insertRecipient(sb: SandboxContext, campaignId: string, patientId: string): CampaignRecipientRecord {
  return recipientTable(sb).insert({
    id: `${campaignId}:${patientId}`,
    campaignId,
    patientId,
    seq: sb.store.nextSeq(),
    status: 'pending',
    messageId: null,
    error: null,
    updated_at: sb.clock.iso(),
  });
}

export function deleteRecipient(sb: SandboxContext, row: CampaignRecipientRecord): void {
  recipientTable(sb).delete(row.id);
}

/** Moves a recipient to a new status; the caller calls sb.store.changed(). */
export function setRecipientStatus(
  sb: SandboxContext,
  row: CampaignRecipientRecord,
  status: RecipientStatus,
  extra: { messageId?: string | null; error?: RecipientError | null } = {},
): void {
  row.status = status;
  if (extra.messageId !== undefined) row.messageId = extra.messageId;
  if (extra.error !== undefined) row.error = extra.error;
  row.updated_at = sb.clock.iso();
  recipientTable(sb).put(row);
}

/** §2.5 counts from the recipient rows: each status lands in exactly one of pending/sent/failed/skipped. */
export function countRecipients(rows: Iterable<Pick<CampaignRecipientRecord, 'status'>>): CampaignCounts {
  const counts: CampaignCounts = { recipients: 0, pending: 0, sent: 0, delivered: 0, failed: 0, skipped: 0 };
  for (const { status } of rows) {
    counts.recipients++;
    switch (status) {
      case 'pending':
      case 'sending':
        counts.pending++;
        break;
      case 'delivered':
      case 'opened':
        counts.delivered++;
        counts.sent++;
        break;
      case 'sent':
        counts.sent++;
        break;
      case 'failed':
      case 'undelivered':
        counts.failed++;
        break;
      case 'skipped':
      case 'cancelled':
        counts.skipped++;
        break;
    }
  }
  return counts;
}

export function campaignView(sb: SandboxContext, c: CampaignRecord): Campaign {
  const number = sb.db.phoneNumbers.get(c.phoneNumberId);
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    channel: c.channel,
    body: c.body,
    phone_number: { number: number?.number ?? '', team: number?.team ?? '' },
    sender: { id: c.sender.id, name: c.sender.name, kind: c.sender.kind },
    send_interval_seconds: c.send_interval_seconds,
    counts: countRecipients(recipientsOf(sb, c.id)),
    archived: c.archived,
    created_at: c.created_at,
    started_at: c.started_at,
    finished_at: c.finished_at,
  };
}

export function recipientView(sb: SandboxContext, r: CampaignRecipientRecord): CampaignRecipient {
  // Deleted patients keep their row (soft delete), so a recipient always has a name to show.
  const patient = sb.db.patients.get(r.patientId);
  return {
    patient: { id: r.patientId, name: patient ? patientName(patient) : '' },
    status: r.status,
    message_id: r.messageId,
    error: r.error ? { ...r.error } : null,
    updated_at: r.updated_at,
  };
}

export function findCampaign(sb: SandboxContext, orgId: string, id: string): CampaignRecord | undefined {
  const c = campaignTable(sb).get(id);
  return c && c.orgId === orgId ? c : undefined;
}

/** 409 campaign_not_editable (§7.3: "running, completed or stopped"), naming the status and what is allowed. */
export function notEditable(c: CampaignRecord, detail: string): ProblemError {
  return problems.conflict('campaign_not_editable', `Campaign is ${c.status}: ${detail}`, { campaign_status: c.status });
}

/** 409 campaign_not_running (§3.1: pause needs running; stop needs running or paused). */
function notRunning(c: CampaignRecord, detail: string): ProblemError {
  return problems.conflict('campaign_not_running', `Campaign is ${c.status}: ${detail}`, { campaign_status: c.status });
}

/**
 * draft or paused → running. Refused (409 campaign_not_editable) when running,
 * completed, stopped or archived; a campaign without recipients cannot start
 * (422). started_at is set on the first start only.
 */
export function startCampaign(sb: SandboxContext, c: CampaignRecord): void {
  if (c.status !== 'draft' && c.status !== 'paused') {
    const why = c.status === 'running' ? 'it is already running.' : 'a finished campaign cannot be started again.';
    throw notEditable(c, `only draft or paused campaigns can be started; ${why}`);
  }
  if (c.archived) throw notEditable(c, 'it is archived; unarchive it before starting it.');
  if (recipientsOf(sb, c.id).length === 0) {
    throw problems.validation(
      [{ path: '/recipients', code: 'required', message: 'Add at least one recipient before starting the campaign.' }],
      'The campaign has no recipients.',
    );
  }
  c.status = 'running';
  c.started_at ??= sb.clock.iso();
  campaignTable(sb).put(c);
  sb.store.changed();
  sb.events.emit('campaign.started', c);
}

/** running → paused; the message in progress still goes out (the sender checks status between messages). */
export function pauseCampaign(sb: SandboxContext, c: CampaignRecord): void {
  if (c.status !== 'running') throw notRunning(c, 'only a running campaign can be paused.');
  c.status = 'paused';
  campaignTable(sb).put(c);
  sb.store.changed();
}

/**
 * running or paused → stopped, at once: every recipient not yet sent —
 * including one whose message is being prepared (`sending`) — is cancelled,
 * so nothing at all is sent after stop returns.
 */
export function stopCampaign(sb: SandboxContext, c: CampaignRecord): void {
  if (c.status !== 'running' && c.status !== 'paused') {
    throw notRunning(c, 'only a running or paused campaign can be stopped.');
  }
  for (const r of recipientsOf(sb, c.id)) {
    if (r.status === 'pending' || r.status === 'sending') setRecipientStatus(sb, r, 'cancelled');
  }
  c.status = 'stopped';
  c.finished_at = sb.clock.iso();
  campaignTable(sb).put(c);
  sb.store.changed();
}

/** running → completed once no recipient is waiting; called by the sender. */
export function completeIfDone(sb: SandboxContext, c: CampaignRecord): boolean {
  if (c.status !== 'running') return false;
  if (recipientsOf(sb, c.id).some((r) => r.status === 'pending' || r.status === 'sending')) return false;
  c.status = 'completed';
  c.finished_at = sb.clock.iso();
  campaignTable(sb).put(c);
  sb.store.changed();
  return true;
}

/** DELETE: drafts and finished campaigns only; running or paused ones must be stopped first (409). */
export function deleteCampaign(sb: SandboxContext, c: CampaignRecord): void {
  if (c.status === 'running' || c.status === 'paused') {
    throw notEditable(c, 'stop it before deleting it (only draft, completed or stopped campaigns can be deleted).');
  }
  for (const r of [...recipientsOf(sb, c.id)]) deleteRecipient(sb, r);
  campaignTable(sb).delete(c.id);
  sb.store.changed();
}
