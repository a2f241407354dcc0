/** `msgctl campaigns delete <id>`: a draft, completed or stopped campaign; asks first on a terminal. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act } from '../kit.js';
import { campaignLabel, fetchCampaign, recipientCount } from './common.js';

export interface CampaignsDeleteOptions {
  id: string;
  yes?: boolean;
}

export async function run(ctx: Context, opts: CampaignsDeleteOptions): Promise<void> {
  const { campaignPath } = await import('../../campaigns/input.js');
  const path = campaignPath(opts.id);
  const { confirmDestructive } = await import('../../util/confirm.js');
  await confirmDestructive(ctx, {
    yes: opts.yes,
    action: `Delete campaign ${opts.id}`,
    question: async () => {
      const campaign = await fetchCampaign(ctx, opts.id);
      return `Delete campaign ${campaignLabel(campaign)} (${campaign.status}, ${recipientCount(campaign.counts.recipients)})? This cannot be undone.`;
    },
  });
  await (await ctx.client()).delete(path, ctx.signal);
  if (ctx.out.mode === 'json') await ctx.out.json({ id: opts.id, deleted: true });
  else ctx.out.info(`Deleted campaign ${opts.id}.`);
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const del = campaigns
    .command('delete <id>')
    .description('Delete a draft, completed or stopped campaign (asks first on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(act((ctx, id: string, flags: { yes?: boolean }) => runF(ctx, { ...flags, id })));
  describeArguments(del, { id: ARGS.campaignId });
  examples(del, ['msgctl campaigns delete "$ID" --yes']);
}
