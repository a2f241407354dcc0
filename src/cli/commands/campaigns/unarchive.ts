/** `msgctl campaigns unarchive <id>`: back into `campaigns list` (PATCH {archived: false}). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { setArchived } from './common.js';

export interface CampaignsUnarchiveOptions {
  id: string;
}

export async function run(ctx: Context, opts: CampaignsUnarchiveOptions): Promise<void> {
  await setArchived(ctx, opts.id, false);
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const cmd = campaigns
    .command('unarchive <id>')
    .description('Bring an archived campaign back into `campaigns list`')
    .action(act((ctx, id: string) => runF(ctx, { id })));
  formatOptions(cmd, FIELDS.campaign);
  describeArguments(cmd, { id: ARGS.campaignId });
  examples(cmd, ['msgctl campaigns unarchive "$ID"']);
}
