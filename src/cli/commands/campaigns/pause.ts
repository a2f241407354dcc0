/** `msgctl campaigns pause <id>`: after the message in progress (POST /campaigns/{id}/pause). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { printCampaign, transition } from './common.js';
import { shellWord } from '../../util/shell-word.js';
import { cell } from '../../output/terminal-text.js';

export interface CampaignsPauseOptions {
  id: string;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: CampaignsPauseOptions): Promise<void> {
  const campaign = await transition(ctx, opts.id, 'pause', opts.idempotencyKey);
  await printCampaign(ctx, campaign);
  ctx.out.info(`Campaign ${cell(campaign.id)} is paused; resume it with: msgctl campaigns start ${shellWord(cell(campaign.id))}`);
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const pause = campaigns
    .command('pause <id>')
    .description('Pause a running campaign after the message in progress (POST /campaigns/{id}/pause)')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried pause safe')
    .action(act((ctx, id: string, flags: { idempotencyKey?: string }) => runF(ctx, { ...flags, id })));
  formatOptions(pause, FIELDS.campaign);
  describeArguments(pause, { id: ARGS.campaignId });
  examples(pause, ['msgctl campaigns pause "$ID"']);
}
