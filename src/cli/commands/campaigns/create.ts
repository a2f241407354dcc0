/** `msgctl campaigns create`: a draft campaign (POST /campaigns). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { choices, examples, nonNegativeNumber, type Act, formatOptions } from '../kit.js';
import { campaignBody, printCampaign, type EditFlags } from './common.js';
import { CAMPAIGN } from '../../api/shapes.js';
import { shellWord } from '../../util/shell-word.js';
import { cell } from '../../output/terminal-text.js';

export type CampaignsCreateOptions = EditFlags & { name: string };

export async function run(ctx: Context, opts: CampaignsCreateOptions): Promise<void> {
  if (opts.body === undefined && opts.bodyFile === undefined) throw new UsageError('Give the message with --body or --body-file.');
  const body = await campaignBody(ctx, { ...opts, from: opts.from ?? (await ctx.profile())?.default_from });
  const idempotencyKey = ctx.idempotencyKey(opts.idempotencyKey);
  const client = await ctx.client();
  const campaign = (await client.request('POST', '/campaigns', { body, idempotencyKey, signal: ctx.signal, shape: CAMPAIGN })).data;
  await printCampaign(ctx, campaign);
  ctx.out.info(`Created draft campaign ${cell(campaign.id)}. Next: msgctl campaigns recipients add ${shellWord(cell(campaign.id))} --csv FILE`);
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const create = campaigns
    .command('create')
    .description('Create a draft campaign (POST /campaigns)')
    .requiredOption('--name <name>', 'staff-only label')
    .option('--body <text>', 'the message every recipient gets (up to 1,600 characters)')
    .option('--body-file <file>', 'read the message from a file (- for stdin)')
    .option('--channel <channel>', 'secure (link by text or email, default) or sms', choices(['secure', 'sms']))
    .option('--from <phone>', 'clinic number to send from (default: the profile\'s default_from, else the credential\'s default)')
    .option('--interval <seconds>', 'seconds between two messages (service default 1)', nonNegativeNumber)
    .option('--idempotency-key <uuid>', 'make a retried create safe: the service replays the first result for 24 h')
    .action(act((ctx, flags: CampaignsCreateOptions) => runF(ctx, flags)));
  formatOptions(create, FIELDS.campaign);
  examples(create, [
    'msgctl campaigns create --name "Flu shots 2026" --body "Flu shots are in: call us to book." --interval 2',
    'msgctl campaigns create --name Recall --body-file recall.txt --channel sms --from +15555550110 --json',
  ]);
}
