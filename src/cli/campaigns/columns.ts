/**
 * How campaigns and recipients print: table/TSV columns for lists and the
 * fields of a single campaign. Loaded only when a campaigns command runs.
 */
import type { Campaign, CampaignRecipient } from '../../contract/api.js';
import type { Column } from '../output/output.js';

// On a narrow terminal: id, name, status and how sending went; the rest with --wide.
export const campaignColumns: Column<Campaign>[] = [
  { header: 'id', value: (c) => c.id, id: true },
  { header: 'name', value: (c) => c.name },
  { header: 'status', value: (c) => c.status, drop: 0.5 },
  { header: 'channel', value: (c) => c.channel, drop: 6 },
  { header: 'from', value: (c) => c.phone_number.number, drop: 7 },
  { header: 'recipients', value: (c) => c.counts.recipients, drop: 2 },
  { header: 'sent', value: (c) => c.counts.sent, drop: 0.7 },
  { header: 'delivered', value: (c) => c.counts.delivered, drop: 3 },
  { header: 'failed', value: (c) => c.counts.failed, drop: 1 },
  { header: 'skipped', value: (c) => c.counts.skipped, drop: 4 },
  { header: 'pending', value: (c) => c.counts.pending, drop: 5 },
  { header: 'archived', value: (c) => c.archived, drop: 8 },
];

export const campaignFields: Column<Campaign>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'name', value: (c) => c.name },
  { header: 'status', value: (c) => c.status },
  { header: 'channel', value: (c) => c.channel },
  { header: 'from', value: (c) => `${c.phone_number.number} (${c.phone_number.team})` },
  { header: 'sender', value: (c) => `${c.sender.name} (${c.sender.kind})` },
  { header: 'send_interval_seconds', value: (c) => c.send_interval_seconds },
  { header: 'recipients', value: (c) => c.counts.recipients },
  { header: 'pending', value: (c) => c.counts.pending },
  { header: 'sent', value: (c) => c.counts.sent, drop: 0.7 },
  { header: 'delivered', value: (c) => c.counts.delivered },
  { header: 'failed', value: (c) => c.counts.failed },
  { header: 'skipped', value: (c) => c.counts.skipped },
  { header: 'archived', value: (c) => c.archived },
  { header: 'created_at', value: (c) => c.created_at },
  { header: 'started_at', value: (c) => c.started_at },
  { header: 'finished_at', value: (c) => c.finished_at },
  { header: 'body', value: (c) => c.body },
];

export const recipientColumns: Column<CampaignRecipient>[] = [
  { header: 'patient_id', value: (r) => r.patient.id, id: true },
  { header: 'name', value: (r) => r.patient.name, drop: 0.5 },
  { header: 'status', value: (r) => r.status },
  { header: 'message_id', value: (r) => r.message_id, drop: 1 },
  { header: 'error', value: (r) => (r.error ? `${r.error.code}: ${r.error.message}` : null), flex: true },
  { header: 'updated_at', value: (r) => r.updated_at, time: true, drop: 2 },
];

/** `campaigns get` on a terminal: what an operator reads, counts on one line (the piped fields stay above). */
export const campaignView: Column<Campaign>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'name', value: (c) => c.name },
  { header: 'status', value: (c) => (c.archived ? `${c.status} (archived)` : c.status) },
  { header: 'channel', value: (c) => c.channel },
  { header: 'from', value: (c) => `${c.phone_number.number} (${c.phone_number.team})` },
  { header: 'sender', value: (c) => `${c.sender.name} (${c.sender.kind})` },
  { header: 'interval', value: (c) => `${c.send_interval_seconds}s between messages` },
  {
    header: 'recipients',
    value: (c) => {
      const n = c.counts;
      return `${n.recipients}: ${n.pending} pending, ${n.sent} sent, ${n.delivered} delivered, ${n.failed} failed, ${n.skipped} skipped`;
    },
  },
  { header: 'created_at', label: 'created', value: (c) => c.created_at, time: true },
  { header: 'started_at', label: 'started', value: (c) => c.started_at, time: true },
  { header: 'finished_at', label: 'finished', value: (c) => c.finished_at, time: true },
  { header: 'body', value: (c) => c.body },
];
