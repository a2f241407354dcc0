/** `msgctl campaigns stop <id>`: for good; asks first on a terminal, --yes otherwise (POST /campaigns/{id}/stop). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act, formatOptions } from '../kit.js';
import { printCampaign, transition } from './common.js';

export interface CampaignsStopOptions {
  id: string;
  yes?: boolean;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: CampaignsStopOptions): Promise<void> {
  const { campaignPath } = await import('../../campaigns/input.js');
  campaignPath(opts.id);
  const { confirmDestructive } = await import('../../util/confirm.js');
  await confirmDestructive(ctx, `Stop campaign ${opts.id}? Recipients not yet sent are cancelled and it cannot be started again.`, opts.yes);
  const campaign = await transition(ctx, opts.id, 'stop', opts.idempotencyKey);
  await printCampaign(ctx, campaign);
  ctx.out.info(`Campaign ${campaign.id} is stopped; ${campaign.counts.skipped} recipients were skipped or cancelled.`);
}

export function register(campaigns: Command, act: Act): void {
  const stop = campaigns
    .command('stop <id>')
    .description('Stop a campaign for good: recipients not yet sent are cancelled (asks first on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried stop safe')
    .action(act((ctx, id: string, flags: { yes?: boolean; idempotencyKey?: string }) => run(ctx, { ...flags, id })));
  formatOptions(stop, FIELDS.campaign);
  examples(stop, ['msgctl campaigns stop "$ID"', 'msgctl campaigns stop "$ID" --yes   # in scripts']);
}
