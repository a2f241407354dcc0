/** `msgctl campaigns update <id>` (PATCH /campaigns/{id}). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ARGS, describeArguments, choices, examples, nonNegativeNumber, type Act, formatOptions } from '../kit.js';
import { campaignBody, printCampaign, type EditFlags } from './common.js';
import { CAMPAIGN } from '../../api/shapes.js';

export interface CampaignsUpdateOptions extends EditFlags {
  id: string;
}

export async function run(ctx: Context, opts: CampaignsUpdateOptions): Promise<void> {
  const { campaignPath } = await import('../../campaigns/input.js');
  const path = campaignPath(opts.id);
  const body = await campaignBody(ctx, opts);
  if (Object.keys(body).length === 0) throw new UsageError('Nothing to update: give at least one of --name, --body, --body-file, --channel, --from, --interval.');
  await printCampaign(ctx, await (await ctx.client()).patch(path, body, ctx.signal, CAMPAIGN));
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const update = campaigns
    .command('update <id>')
    .description('Change a campaign (PATCH /campaigns/{id}): name and interval always; body and channel when draft or paused; from when draft')
    .option('--name <name>', 'new label')
    .option('--body <text>', 'new message')
    .option('--body-file <file>', 'read the new message from a file (- for stdin)')
    .option('--channel <channel>', 'secure or sms', choices(['secure', 'sms']))
    .option('--from <phone>', 'new clinic number (draft only)')
    .option('--interval <seconds>', 'new seconds between two messages', nonNegativeNumber)
    .action(act((ctx, id: string, flags: EditFlags) => runF(ctx, { ...flags, id })));
  formatOptions(update, FIELDS.campaign);
  describeArguments(update, { id: ARGS.campaignId });
  examples(update, ['msgctl campaigns update "$ID" --interval 5', 'msgctl campaigns update "$ID" --body-file corrected.txt   # draft or paused']);
}
