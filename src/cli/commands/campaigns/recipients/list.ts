/** `msgctl campaigns recipients list <id>`: in send order, with status (GET /campaigns/{id}/recipients). */
import { FIELDS } from '../../../../contract/api.js';
import type { Command } from 'commander';
import { RECIPIENT_STATUSES } from '../../../../contract/api.js';
import type { Context } from '../../../context.js';
import { ARGS, describeArguments, allOption, wideOption, choices, examples, limitOption, listLimit, type Act, type ListFlags, formatOptions } from '../../kit.js';
import { CAMPAIGN, RECIPIENT } from '../../../api/shapes.js';

export interface RecipientsListOptions extends ListFlags {
  id: string;
  status?: string;
}

export async function run(ctx: Context, opts: RecipientsListOptions): Promise<void> {
  const [{ campaignPath }, { recipientColumns }] = await Promise.all([
    import('../../../campaigns/input.js'),
    import('../../../campaigns/columns.js'),
  ]);
  const path = campaignPath(opts.id, '/recipients');
  const client = await ctx.client();
  const rows = client.paginate(path, { status: opts.status }, { limit: listLimit(opts), signal: ctx.signal, shape: RECIPIENT });
  // The campaign's counts say how many recipients there are in all (only asked when the list was cut).
  const total = async () => (opts.status ? undefined : (await client.get(campaignPath(opts.id), undefined, ctx.signal, CAMPAIGN)).counts.recipients);
  await ctx.out.list(rows, recipientColumns, { empty: 'No recipients found.', noun: 'recipients', total });
}

export function register(recipients: Command, act: Act, runF: typeof run = run): void {
  const list = recipients
    .command('list <id>')
    .description('List recipients in send order, with their status (GET /campaigns/{id}/recipients)')
    .option('--status <status>', 'only recipients in this status', choices(RECIPIENT_STATUSES))
    .addOption(limitOption('print at most this many recipients'))
    .addOption(allOption('print every recipient, following all pages'))
    .addOption(wideOption())
    .action(act((ctx, id: string, flags: Omit<RecipientsListOptions, 'id'>) => runF(ctx, { ...flags, id })));
  formatOptions(list, FIELDS.recipient);
  describeArguments(list, { id: ARGS.campaignId });
  examples(list, [
    'msgctl campaigns recipients list "$ID" --all',
    'msgctl campaigns recipients list "$ID" --status skipped --all --json | jq -r .error.code',
  ]);
}
