/** `msgctl campaigns get <id>`: one campaign with its counts (GET /campaigns/{id}). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { printCampaign } from './common.js';
import { CAMPAIGN } from '../../api/shapes.js';

export interface CampaignsGetOptions {
  id: string;
}

export async function run(ctx: Context, opts: CampaignsGetOptions): Promise<void> {
  const { campaignPath } = await import('../../campaigns/input.js');
  const path = campaignPath(opts.id);
  await printCampaign(ctx, await (await ctx.client()).get(path, undefined, ctx.signal, CAMPAIGN));
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const get = campaigns
    .command('get <id>')
    .description('Show one campaign with its counts (GET /campaigns/{id})')
    .action(act((ctx, id: string) => runF(ctx, { id })));
  formatOptions(get, FIELDS.campaign);
  describeArguments(get, { id: ARGS.campaignId });
  examples(get, ['msgctl campaigns get "$ID"', 'msgctl campaigns get "$ID" --json | jq .counts']);
}
