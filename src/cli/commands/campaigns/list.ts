/** `msgctl campaigns list`: oldest first; archived ones only with --archived (GET /campaigns). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { allOption, wideOption, choices, examples, limitOption, listLimit, type Act, type ListFlags, formatOptions } from '../kit.js';
import { STATUSES } from './common.js';
import { CAMPAIGN } from '../../api/shapes.js';

export interface CampaignsListOptions extends ListFlags {
  status?: string;
  archived?: boolean;
}

export async function run(ctx: Context, opts: CampaignsListOptions): Promise<void> {
  const { campaignColumns } = await import('../../campaigns/columns.js');
  const client = await ctx.client();
  const rows = client.paginate(
    '/campaigns',
    { status: opts.status, archived: opts.archived ? 'true' : undefined },
    { limit: listLimit(opts), signal: ctx.signal, shape: CAMPAIGN },
  );
  await ctx.out.list(rows, campaignColumns, { empty: 'No campaigns found.', noun: 'campaigns' });
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const list = campaigns
    .command('list')
    .description('List campaigns, oldest first (GET /campaigns); archived ones only with --archived')
    .option('--status <status>', 'only campaigns in this status', choices(STATUSES))
    .option('--archived', 'list archived campaigns instead of current ones')
    .addOption(limitOption('print at most this many campaigns'))
    .addOption(allOption('print every campaign, following all pages'))
    .addOption(wideOption())
    .action(act((ctx, flags: CampaignsListOptions) => runF(ctx, flags)));
  formatOptions(list, FIELDS.campaign);
  examples(list, ['msgctl campaigns list --status running', 'msgctl campaigns list --archived --all --json | jq .name']);
}
