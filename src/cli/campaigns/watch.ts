/**
 * `campaigns watch`: polls GET /campaigns/{id} until the campaign completes
 * (exit 0) or is stopped (exit 1). On a terminal it shows progress on stderr
 * in the one style of long work (output/progress.ts); piped or with --json it prints the campaign as one JSON
 * line on stdout each time it changes, so scripts see every step. Ctrl-C
 * ends the watch only (exit 130): the campaign carries on in the service.
 * A draft or paused campaign is waited on, since it may be started later.
 */
import type { Context } from '../context.js';
import type { Campaign } from '../../contract/api.js';
import { ExitCode } from '../exit-codes.js';
import { campaignPath } from './input.js';

export { formatDuration } from '../output/progress.js';
import { formatDuration } from '../output/progress.js';
import { cell } from '../output/terminal-text.js';
import { CAMPAIGN } from '../api/shapes.js';

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

/** What the progress line adds after done/total: every count and the time left at the campaign's interval. */
export function countsNote(c: Campaign): string {
  const { sent, delivered, failed, skipped } = c.counts;
  return `sent ${sent} · delivered ${delivered} · failed ${failed} · skipped ${skipped} · ${eta(c)}`;
}

export async function watchCampaign(ctx: Context, id: string, options: { pollMs: number }): Promise<number> {
  const path = campaignPath(id);
  const client = await ctx.client();
  // A person at a terminal gets the one progress style (output/progress.ts); scripts get a JSON line per change.
  const progress = ctx.out.mode === 'table' ? await ctx.out.progress({ label: 'campaign', unit: 'recipients' }) : null;
  const stderr = ctx.io.stderr;
  let campaign: Campaign | null = null;
  let last = '';
  try {
    for (;;) {
      campaign = await client.get(path, undefined, ctx.signal, CAMPAIGN);
      const snapshot = JSON.stringify(campaign);
      if (progress) {
        progress.setTotal(campaign.counts.recipients);
        progress.update(campaign.counts.recipients - campaign.counts.pending, countsNote(campaign));
      } else if (snapshot !== last) await ctx.out.json(campaign);
      last = snapshot;
      if (campaign.status === 'completed' || campaign.status === 'stopped') break;
      await ctx.services.clock.sleep(options.pollMs, ctx.signal);
    }
  } catch (err) {
    progress?.stop();
    if (!ctx.signal.aborted) throw err;
    // The service's status through cell(), as everything from data on its way to the terminal.
    const terminated = (ctx.signal.reason as { signal?: string } | undefined)?.signal === 'SIGTERM';
    stderr.write(
      `Stopped watching. Campaign ${cell(id)} is still ${campaign ? cell(campaign.status) : 'in the state it was'}: ` +
        `${terminated ? 'stopping msgctl' : 'Ctrl-C'} does not pause or stop it (msgctl campaigns pause ${cell(id)}).\n`,
    );
    // As every interrupted command ends: 130 for Ctrl-C, 143 for SIGTERM (a scheduler's timeout).
    return terminated ? ExitCode.Terminated : ExitCode.Interrupted;
  }
  progress?.stop();
  const { sent, failed, skipped, recipients } = campaign.counts;
  if (campaign.status === 'completed') {
    ctx.out.info(`Campaign ${cell(campaign.id)} completed: ${sent} of ${recipients} sent, ${failed} failed, ${skipped} skipped.`);
    return ExitCode.Ok;
  }
  ctx.out.info(`Campaign ${cell(campaign.id)} was stopped: ${sent} of ${recipients} sent, ${skipped} skipped or cancelled (exit 1).`);
  return ExitCode.Failure;
}
