import type { Command } from 'commander';
import type { Campaign, CampaignStatus } from '../../contract/api.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { choices, examples, nonNegativeNumber, positiveInt, type Act } from './kit.js';
import { registerCampaignRecipients } from './campaigns-recipients.js';
import { registerCampaignWatch } from './campaigns-watch.js';

const STATUSES: readonly CampaignStatus[] = ['draft', 'running', 'paused', 'completed', 'stopped'];

interface EditFlags {
  name?: string;
  body?: string;
  bodyFile?: string;
  channel?: 'secure' | 'sms';
  from?: string;
  interval?: number;
  idempotencyKey?: string;
}

async function printCampaign(ctx: Context, campaign: Campaign): Promise<void> {
  const { campaignFields } = await import('../campaigns/columns.js');
  await ctx.out.resource(campaign, campaignFields);
}

/** The request body for create/update from the flags that were given (PATCH semantics: absent stays absent). */
async function campaignBody(ctx: Context, flags: EditFlags): Promise<Record<string, unknown>> {
  const { normaliseFrom, readCampaignBody } = await import('../campaigns/input.js');
  const body: Record<string, unknown> = {};
  if (flags.name !== undefined) {
    if (!flags.name.trim()) throw new UsageError('--name must not be empty.');
    body.name = flags.name.trim();
  }
  const text = await readCampaignBody(ctx, flags.body, flags.bodyFile);
  if (text !== undefined) body.body = text;
  if (flags.channel !== undefined) body.channel = flags.channel;
  const from = await normaliseFrom(ctx, flags.from);
  if (from !== undefined) body.from = from;
  if (flags.interval !== undefined) body.send_interval_seconds = flags.interval;
  return body;
}

/** start / pause / stop: an Idem POST that returns the campaign. */
async function transition(ctx: Context, id: string, action: 'start' | 'pause' | 'stop', key?: string): Promise<Campaign> {
  const { campaignPath } = await import('../campaigns/input.js');
  const path = campaignPath(id, `/${action}`);
  const idempotencyKey = ctx.idempotencyKey(key);
  const client = await ctx.client();
  return (await client.request<Campaign>('POST', path, { idempotencyKey, signal: ctx.signal })).data;
}

export function registerCampaigns(program: Command, act: Act): void {
  const campaigns = program
    .command('campaigns')
    .description('Send one message to many patients: create, add recipients, start, watch, pause, stop');
  examples(campaigns, [
    'ID=$(msgctl campaigns create --name "Flu shots" --body-file flu.txt --json | jq -r .id)',
    'msgctl campaigns recipients add "$ID" --csv patients.csv && msgctl campaigns start "$ID" && msgctl campaigns watch "$ID"',
  ]);

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
    .action(
      act(async (ctx, flags: EditFlags) => {
        if (flags.body === undefined && flags.bodyFile === undefined) throw new UsageError('Give the message with --body or --body-file.');
        const body = await campaignBody(ctx, { ...flags, from: flags.from ?? (await ctx.profile())?.default_from });
        const idempotencyKey = ctx.idempotencyKey(flags.idempotencyKey);
        const client = await ctx.client();
        const campaign = (await client.request<Campaign>('POST', '/campaigns', { body, idempotencyKey, signal: ctx.signal })).data;
        await printCampaign(ctx, campaign);
        ctx.out.info(`Created draft campaign ${campaign.id}. Next: msgctl campaigns recipients add ${campaign.id} --csv FILE`);
      }),
    );
  examples(create, [
    'msgctl campaigns create --name "Flu shots 2026" --body "Flu shots are in: call us to book." --interval 2',
    'msgctl campaigns create --name Recall --body-file recall.txt --channel sms --from +15555550110 --json',
  ]);

  const list = campaigns
    .command('list')
    .description('List campaigns, oldest first (GET /campaigns); archived ones only with --archived')
    .option('--status <status>', 'only campaigns in this status', choices(STATUSES))
    .option('--archived', 'list archived campaigns instead of current ones')
    .option('--limit <n>', 'print at most this many campaigns', positiveInt, 50)
    .option('--all', 'print every campaign, following all pages')
    .action(
      act(async (ctx, flags: { status?: string; archived?: boolean; limit: number; all?: boolean }) => {
        const { campaignColumns } = await import('../campaigns/columns.js');
        const client = await ctx.client();
        const rows = client.paginate<Campaign>(
          '/campaigns',
          { status: flags.status, archived: flags.archived ? 'true' : undefined },
          { limit: flags.all ? undefined : flags.limit, signal: ctx.signal },
        );
        await ctx.out.list(rows, campaignColumns, { empty: 'No campaigns found.' });
      }),
    );
  examples(list, ['msgctl campaigns list --status running', 'msgctl campaigns list --archived --all --json | jq .name']);

  const get = campaigns
    .command('get <id>')
    .description('Show one campaign with its counts (GET /campaigns/{id})')
    .action(
      act(async (ctx, id: string) => {
        const { campaignPath } = await import('../campaigns/input.js');
        const path = campaignPath(id);
        await printCampaign(ctx, await (await ctx.client()).get<Campaign>(path, undefined, ctx.signal));
      }),
    );
  examples(get, ['msgctl campaigns get "$ID"', 'msgctl campaigns get "$ID" --json | jq .counts']);

  const update = campaigns
    .command('update <id>')
    .description('Change a campaign (PATCH /campaigns/{id}): name and interval always; body and channel when draft or paused; from when draft')
    .option('--name <name>', 'new label')
    .option('--body <text>', 'new message')
    .option('--body-file <file>', 'read the new message from a file (- for stdin)')
    .option('--channel <channel>', 'secure or sms', choices(['secure', 'sms']))
    .option('--from <phone>', 'new clinic number (draft only)')
    .option('--interval <seconds>', 'new seconds between two messages', nonNegativeNumber)
    .action(
      act(async (ctx, id: string, flags: EditFlags) => {
        const { campaignPath } = await import('../campaigns/input.js');
        const path = campaignPath(id);
        const body = await campaignBody(ctx, flags);
        if (Object.keys(body).length === 0) throw new UsageError('Nothing to update: give at least one of --name, --body, --body-file, --channel, --from, --interval.');
        await printCampaign(ctx, await (await ctx.client()).patch<Campaign>(path, body, ctx.signal));
      }),
    );
  examples(update, ['msgctl campaigns update "$ID" --interval 5', 'msgctl campaigns update "$ID" --body-file corrected.txt   # draft or paused']);

  for (const [name, archived] of [['archive', true], ['unarchive', false]] as const) {
    const cmd = campaigns
      .command(`${name} <id>`)
      .description(
        archived
          ? 'Hide a campaign from `campaigns list` (not while running; its status does not change)'
          : 'Bring an archived campaign back into `campaigns list`',
      )
      .action(
        act(async (ctx, id: string) => {
          const { campaignPath } = await import('../campaigns/input.js');
          const path = campaignPath(id);
          await printCampaign(ctx, await (await ctx.client()).patch<Campaign>(path, { archived }, ctx.signal));
        }),
      );
    examples(cmd, [`msgctl campaigns ${name} "$ID"`]);
  }

  const start = campaigns
    .command('start <id>')
    .description('Start a draft campaign, or resume a paused one (POST /campaigns/{id}/start)')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried start safe')
    .action(
      act(async (ctx, id: string, flags: { idempotencyKey?: string }) => {
        const campaign = await transition(ctx, id, 'start', flags.idempotencyKey);
        await printCampaign(ctx, campaign);
        ctx.out.info(`Campaign ${campaign.id} is running. Follow it with: msgctl campaigns watch ${campaign.id}`);
      }),
    );
  examples(start, ['msgctl campaigns start "$ID"', 'msgctl campaigns start "$ID" && msgctl campaigns watch "$ID"']);

  const pause = campaigns
    .command('pause <id>')
    .description('Pause a running campaign after the message in progress (POST /campaigns/{id}/pause)')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried pause safe')
    .action(
      act(async (ctx, id: string, flags: { idempotencyKey?: string }) => {
        const campaign = await transition(ctx, id, 'pause', flags.idempotencyKey);
        await printCampaign(ctx, campaign);
        ctx.out.info(`Campaign ${campaign.id} is paused; resume it with: msgctl campaigns start ${campaign.id}`);
      }),
    );
  examples(pause, ['msgctl campaigns pause "$ID"']);

  const stop = campaigns
    .command('stop <id>')
    .description('Stop a campaign for good: recipients not yet sent are cancelled (asks first on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried stop safe')
    .action(
      act(async (ctx, id: string, flags: { yes?: boolean; idempotencyKey?: string }) => {
        const { campaignPath } = await import('../campaigns/input.js');
        campaignPath(id);
        const { confirmDestructive } = await import('../util/confirm.js');
        await confirmDestructive(ctx, `Stop campaign ${id}? Recipients not yet sent are cancelled and it cannot be started again.`, flags.yes);
        const campaign = await transition(ctx, id, 'stop', flags.idempotencyKey);
        await printCampaign(ctx, campaign);
        ctx.out.info(`Campaign ${campaign.id} is stopped; ${campaign.counts.skipped} recipients were skipped or cancelled.`);
      }),
    );
  examples(stop, ['msgctl campaigns stop "$ID"', 'msgctl campaigns stop "$ID" --yes   # in scripts']);

  const del = campaigns
    .command('delete <id>')
    .description('Delete a draft, completed or stopped campaign (asks first on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      act(async (ctx, id: string, flags: { yes?: boolean }) => {
        const { campaignPath } = await import('../campaigns/input.js');
        const path = campaignPath(id);
        const { confirmDestructive } = await import('../util/confirm.js');
        await confirmDestructive(ctx, `Delete campaign ${id}?`, flags.yes);
        await (await ctx.client()).delete(path, ctx.signal);
        if (ctx.out.mode === 'json') await ctx.out.json({ id, deleted: true });
        else ctx.out.info(`Deleted campaign ${id}.`);
      }),
    );
  examples(del, ['msgctl campaigns delete "$ID" --yes']);

  registerCampaignRecipients(campaigns, act);
  registerCampaignWatch(campaigns, act);
}
