/**
 * `campaigns watch`: polls GET /campaigns/{id} until the campaign completes
 * (exit 0) or is stopped (exit 1). On a terminal it redraws one progress
 * line on stderr; piped or with --json it prints the campaign as one JSON
 * line on stdout each time it changes, so scripts see every step. Ctrl-C
 * ends the watch only (exit 130): the campaign carries on in the service.
 * A draft or paused campaign is waited on, since it may be started later.
 */
import type { Context } from '../context.js';
import type { Campaign } from '../../contract/api.js';
import { ExitCode } from '../exit-codes.js';
import { campaignPath } from './input.js';

/** "45s", "4m 05s", "2h 03m". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Time left if the service keeps its interval: one message per pending recipient. */
export function eta(c: Campaign): string {
  switch (c.status) {
    case 'running':
      return `ETA ${formatDuration(c.counts.pending * c.send_interval_seconds)}`;
    case 'paused':
      return 'paused';
    case 'draft':
      return 'not started';
    default:
      return c.status;
  }
}

/** One line, at most `width` columns: bar, done/total, every count, ETA. */
export function progressLine(c: Campaign, width = 100): string {
  const { recipients, pending, sent, delivered, failed, skipped } = c.counts;
  const done = recipients - pending;
  const counts = `${done}/${recipients}  sent ${sent} · delivered ${delivered} · failed ${failed} · skipped ${skipped} · pending ${pending} · ${eta(c)}`;
  const barWidth = Math.max(0, Math.min(30, width - [...counts].length - 3));
  if (barWidth < 5) return [...counts].slice(0, width).join('');
  const filled = recipients === 0 ? 0 : Math.round((done / recipients) * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${counts}`;
}

export async function watchCampaign(ctx: Context, id: string, options: { pollMs: number }): Promise<number> {
  const path = campaignPath(id);
  const client = await ctx.client();
  const live = ctx.out.mode === 'table';
  const stderr = ctx.io.stderr;
  const width = () => (stderr.columns && stderr.columns > 20 ? stderr.columns - 1 : 100);
  let campaign: Campaign | null = null;
  let last = '';
  try {
    for (;;) {
      campaign = await client.get<Campaign>(path, undefined, ctx.signal);
      const snapshot = JSON.stringify(campaign);
      // The terminal line is redrawn every poll; scripts get a line only when something changed.
      if (live) stderr.write(`\r\x1b[2K${progressLine(campaign, width())}`);
      else if (snapshot !== last) await ctx.out.json(campaign);
      last = snapshot;
      if (campaign.status === 'completed' || campaign.status === 'stopped') break;
      await ctx.services.clock.sleep(options.pollMs, ctx.signal);
    }
  } catch (err) {
    if (!ctx.signal.aborted) throw err;
    if (live) stderr.write('\n');
    stderr.write(
      `Stopped watching. Campaign ${id} is still ${campaign?.status ?? 'in the state it was'}: ` +
        `Ctrl-C does not pause or stop it (msgctl campaigns pause ${id}).\n`,
    );
    return ExitCode.Interrupted;
  }
  if (live) stderr.write('\n');
  const { sent, failed, skipped, recipients } = campaign.counts;
  if (campaign.status === 'completed') {
    ctx.out.info(`Campaign ${campaign.id} completed: ${sent} of ${recipients} sent, ${failed} failed, ${skipped} skipped.`);
    return ExitCode.Ok;
  }
  ctx.out.info(`Campaign ${campaign.id} was stopped: ${sent} of ${recipients} sent, ${skipped} skipped or cancelled (exit 1).`);
  return ExitCode.Failure;
}
