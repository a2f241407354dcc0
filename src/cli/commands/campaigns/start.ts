/** `msgctl campaigns start <id>`: start a draft, or resume a paused one (POST /campaigns/{id}/start); it texts people, so it asks first. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Campaign } from '../../../contract/api.js';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { campaignLabel, fetchCampaign, printCampaign, recipientCount, transition, transitionRefused } from './common.js';
import { shellWord } from '../../util/shell-word.js';
import { cell } from '../../output/terminal-text.js';
import { CliError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';

export interface CampaignsStartOptions {
  id: string;
  yes?: boolean;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: CampaignsStartOptions): Promise<void> {
  const { campaignPath } = await import('../../campaigns/input.js');
  campaignPath(opts.id);
  const { confirmDestructive } = await import('../../util/confirm.js');
  await confirmDestructive(ctx, { yes: opts.yes, action: `Start campaign ${opts.id}`, question: async () => startQuestion(await fetchCampaign(ctx, opts.id)) });
  const campaign = await transition(ctx, opts.id, 'start', opts.idempotencyKey);
  await printCampaign(ctx, campaign);
  ctx.out.info(`Campaign ${cell(campaign.id)} is running. Follow it with: msgctl campaigns watch ${shellWord(cell(campaign.id))}`);
}

/**
 * Who gets what, and how: the count is the recipients still pending (all of them for a draft).
 * A campaign that cannot be started (running, completed, stopped) and a draft with nobody to send
 * to are refused here, before the question: a "yes" would only meet the service's 409 or 422
 * (the same exit codes, 5 and 6).
 */
function startQuestion(campaign: Campaign): string {
  const refused = transitionRefused(campaign, 'start');
  if (refused) throw refused;
  if (campaign.status === 'draft' && campaign.counts.pending === 0) {
    throw new CliError(`Campaign ${campaignLabel(campaign)} has no recipients yet: starting it would send nothing.`, ExitCode.Validation, [
      `Add them first: msgctl campaigns recipients add ${shellWord(cell(campaign.id))} --csv FILE (or --patient ID)`,
    ]);
  }
  const verb = campaign.status === 'paused' ? 'Resume' : 'Start';
  const who = recipientCount(campaign.counts.pending);
  const how =
    campaign.channel === 'sms'
      ? `texts ${who} from ${campaign.phone_number.number}`
      : `sends ${who} a secure message (a link by text or email) from ${campaign.phone_number.number}`;
  const pace = campaign.send_interval_seconds > 0 ? `, one every ${campaign.send_interval_seconds} s` : '';
  return `${verb} campaign ${campaignLabel(campaign)}? It ${how}${pace}.`;
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const start = campaigns
    .command('start <id>')
    .description('Start a draft campaign, or resume a paused one: it sends to every pending recipient (asks first on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation (scripts)')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried start safe')
    .action(act((ctx, id: string, flags: { yes?: boolean; idempotencyKey?: string }) => runF(ctx, { ...flags, id })));
  formatOptions(start, FIELDS.campaign);
  describeArguments(start, { id: ARGS.campaignId });
  examples(start, ['msgctl campaigns start "$ID"            # asks, naming the campaign and how many it texts', 'msgctl campaigns start "$ID" --yes && msgctl campaigns watch "$ID"   # in scripts']);
}
