/** `msgctl campaigns start <id>`: start a draft, or resume a paused one (POST /campaigns/{id}/start). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act, formatOptions } from '../kit.js';
import { printCampaign, transition } from './common.js';

export interface CampaignsStartOptions {
  id: string;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: CampaignsStartOptions): Promise<void> {
  const campaign = await transition(ctx, opts.id, 'start', opts.idempotencyKey);
  await printCampaign(ctx, campaign);
  ctx.out.info(`Campaign ${campaign.id} is running. Follow it with: msgctl campaigns watch ${campaign.id}`);
}

export function register(campaigns: Command, act: Act): void {
  const start = campaigns
    .command('start <id>')
    .description('Start a draft campaign, or resume a paused one (POST /campaigns/{id}/start)')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried start safe')
    .action(act((ctx, id: string, flags: { idempotencyKey?: string }) => run(ctx, { ...flags, id })));
  formatOptions(start, FIELDS.campaign);
  examples(start, ['msgctl campaigns start "$ID"', 'msgctl campaigns start "$ID" && msgctl campaigns watch "$ID"']);
}
