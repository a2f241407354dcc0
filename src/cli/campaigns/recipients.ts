/**
 * `campaigns recipients add|remove`: ids from flags or a CSV, sent in calls
 * of at most 1,000 (the service's limit per call), each with its own
 * Idempotency-Key. Adding is safe to re-run: patients already on the
 * campaign come back as already_present, not as failures.
 *
 * Anything that could not be added (unresolved CSV rows, unknown ids) is
 * listed on stderr and makes the exit code 10 (product.md: "a batch
 * finished, but some items failed").
 */
import type { Context } from '../context.js';
import type { Campaign } from '../../contract/api.js';
import type { Column } from '../output/output.js';
import { ExitCode } from '../exit-codes.js';
import { campaignPath, patientIds } from './input.js';
import { ADDED_RECIPIENTS, REMOVED_RECIPIENTS } from '../api/shapes.js';
import { cell } from '../output/terminal-text.js';

/** The service's maximum ids per call (docs/campaigns.md). */
export const IDS_PER_CALL = 1000;

interface RemoveResponse {
  removed: string[];
  not_found: string[];
  not_removable: string[];
  campaign: Campaign;
}

export interface AddSummary {
  campaign_id: string;
  added: number;
  already_present: number;
  not_found: string[];
  /** CSV rows that named no single patient. */
  unresolved: { row: number; reason: string }[];
  /** The campaign after the last call (null when nothing was sent). */
  campaign: Campaign | null;
}

/** The same names as the --json summary (docs/campaigns.md), so a script can switch modes. */
const addFields: Column<AddSummary>[] = [
  { header: 'campaign_id', value: (s) => s.campaign_id },
  { header: 'added', value: (s) => s.added },
  { header: 'already_present', value: (s) => s.already_present },
  { header: 'not_found', value: (s) => s.not_found.join(' ') },
  // CSV row numbers (spreadsheet rows), not a count: the label says so.
  { header: 'unresolved', label: 'unresolved CSV rows', value: (s) => s.unresolved.map((u) => u.row).join(' ') },
  { header: 'recipients', value: (s) => s.campaign?.counts.recipients ?? null },
];

export async function addRecipients(ctx: Context, id: string, flags: { patient?: string[]; csv?: string; region?: string }): Promise<number> {
  const path = campaignPath(id, '/recipients');
  const given = flags.patient ? patientIds(flags.patient) : null;
  const region = await ctx.region(flags.region);
  const client = await ctx.client();
  const summary: AddSummary = { campaign_id: id.toLowerCase(), added: 0, already_present: 0, not_found: [], unresolved: [], campaign: null };
  /** Patient id → CSV row, to name the row of an id the service does not know. */
  const rowOf = new Map<string, number>();
  let batch: string[] = [];

  const send = async () => {
    if (batch.length === 0) return;
    const response = await client.request('POST', path, {
      body: { patient_ids: batch },
      idempotencyKey: ctx.freshIdempotencyKey(),
      signal: ctx.signal,
      shape: ADDED_RECIPIENTS,
    });
    const r = response.data;
    summary.added += r.added.length;
    summary.already_present += r.already_present.length;
    for (const missing of r.not_found) {
      summary.not_found.push(missing);
      const row = rowOf.get(missing);
      ctx.out.warn(`${row ? `row ${row}: ` : ''}patient ${cell(missing)} was not found; not added.`);
    }
    summary.campaign = r.campaign;
    batch = [];
  };
  const push = async (patientId: string) => {
    batch.push(patientId);
    if (batch.length >= IDS_PER_CALL) await send();
  };

  try {
    if (given) {
      for (const patientId of given) await push(patientId);
    } else {
      const { resolveCsvRecipients } = await import('./recipients-csv.js');
      for await (const outcome of resolveCsvRecipients(client, flags.csv!, { region, signal: ctx.signal, onNote: (note) => ctx.out.info(`note: ${note}`) })) {
        if ('reason' in outcome) {
          summary.unresolved.push(outcome);
          ctx.out.warn(`row ${outcome.row}: ${cell(outcome.reason)}; not added.`);
        } else {
          rowOf.set(outcome.patientId, outcome.row);
          await push(outcome.patientId);
        }
      }
    }
    await send();
  } catch (err) {
    if (summary.added > 0) ctx.out.info(`${recipients(summary.added)} ${summary.added === 1 ? 'was' : 'were'} added before this error.`);
    throw err;
  }

  if (ctx.out.mode === 'json') await ctx.out.json(summary);
  else await ctx.out.resource(summary, addFields);
  const failed = summary.not_found.length + summary.unresolved.length;
  ctx.out.info(
    `Added ${recipients(summary.added)}` +
      (summary.already_present ? ` (${summary.already_present} ${summary.already_present === 1 ? 'was' : 'were'} already on the campaign)` : '') +
      (failed ? `; ${failed} could not be added (listed above).` : '.'),
  );
  return failed > 0 ? ExitCode.Partial : ExitCode.Ok;
}

const removeFields: Column<RemoveResponse>[] = [
  { header: 'campaign_id', value: (r) => r.campaign.id },
  { header: 'removed', value: (r) => r.removed.length },
  { header: 'not_found', value: (r) => r.not_found.join(' ') },
  { header: 'not_removable', value: (r) => r.not_removable.join(' ') },
  { header: 'recipients', value: (r) => r.campaign.counts.recipients },
];

/** "1 recipient", "3 recipients". */
function recipients(n: number): string {
  return `${n} recipient${n === 1 ? '' : 's'}`;
}

export async function removeRecipients(ctx: Context, id: string, patients: string[]): Promise<number> {
  const path = campaignPath(id, '/recipients/remove');
  const ids = patientIds(patients);
  const client = await ctx.client();
  const merged: RemoveResponse = { removed: [], not_found: [], not_removable: [], campaign: null as unknown as Campaign };
  for (let at = 0; at < ids.length; at += IDS_PER_CALL) {
    const response = await client.request('POST', path, {
      body: { patient_ids: ids.slice(at, at + IDS_PER_CALL) },
      idempotencyKey: ctx.freshIdempotencyKey(),
      signal: ctx.signal,
      shape: REMOVED_RECIPIENTS,
    });
    merged.removed.push(...response.data.removed);
    merged.not_found.push(...response.data.not_found);
    merged.not_removable.push(...response.data.not_removable);
    merged.campaign = response.data.campaign;
  }
  for (const p of merged.not_found) ctx.out.warn(`patient ${cell(p)} is not on the campaign.`);
  for (const p of merged.not_removable) ctx.out.warn(`patient ${cell(p)} is no longer pending (already sent or being sent); kept.`);
  if (ctx.out.mode === 'json') await ctx.out.json(merged);
  else await ctx.out.resource(merged, removeFields);
  return merged.not_found.length + merged.not_removable.length > 0 ? ExitCode.Partial : ExitCode.Ok;
}
