/** `msgctl campaigns stop <id>`: for good; asks first on a terminal, --yes otherwise (POST /campaigns/{id}/stop). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { campaignLabel, fetchCampaign, printCampaign, recipientCount, transition, transitionRefused } from './common.js';
import { cell } from '../../output/terminal-text.js';

export interface CampaignsStopOptions {
  id: string;
  yes?: boolean;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: CampaignsStopOptions): Promise<void> {
  const { campaignPath } = await import('../../campaigns/input.js');
  campaignPath(opts.id);
  const { confirmDestructive } = await import('../../util/confirm.js');
  await confirmDestructive(ctx, {
    yes: opts.yes,
    action: `Stop campaign ${opts.id}`,
    question: async () => {
      const campaign = await fetchCampaign(ctx, opts.id);
      const refused = transitionRefused(campaign, 'stop');
      if (refused) throw refused;
      return (
        `Stop campaign ${campaignLabel(campaign)}? ${recipientCount(campaign.counts.pending)} not yet sent will be cancelled` +
        ` (${campaign.counts.sent} already sent), and it cannot be started again.`
      );
    },
  });
  const campaign = await transition(ctx, opts.id, 'stop', opts.idempotencyKey);
  await printCampaign(ctx, campaign);
  ctx.out.info(`Campaign ${cell(campaign.id)} is stopped; ${campaign.counts.skipped} recipients were skipped or cancelled.`);
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const stop = campaigns
    .command('stop <id>')
    .description('Stop a campaign for good: recipients not yet sent are cancelled (asks first on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried stop safe')
    .action(act((ctx, id: string, flags: { yes?: boolean; idempotencyKey?: string }) => runF(ctx, { ...flags, id })));
  formatOptions(stop, FIELDS.campaign);
  describeArguments(stop, { id: ARGS.campaignId });
  examples(stop, ['msgctl campaigns stop "$ID"', 'msgctl campaigns stop "$ID" --yes   # in scripts']);
}
