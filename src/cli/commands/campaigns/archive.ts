/** `msgctl campaigns archive <id>`: hide it from `campaigns list` (PATCH {archived: true}). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { setArchived } from './common.js';

export interface CampaignsArchiveOptions {
  id: string;
}

export async function run(ctx: Context, opts: CampaignsArchiveOptions): Promise<void> {
  await setArchived(ctx, opts.id, true);
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const cmd = campaigns
    .command('archive <id>')
    .description('Hide a campaign from `campaigns list` (not while running; its status does not change)')
    .action(act((ctx, id: string) => runF(ctx, { id })));
  formatOptions(cmd, FIELDS.campaign);
  describeArguments(cmd, { id: ARGS.campaignId });
  examples(cmd, ['msgctl campaigns archive "$ID"']);
}
