/** What the `msgctl campaigns` verbs share: printing, request bodies from flags, state transitions. */
import type { Campaign, CampaignStatus } from '../../../contract/api.js';
import type { Context } from '../../context.js';
import { CliError, UsageError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { shellWord } from '../../util/shell-word.js';
import { cell } from '../../output/terminal-text.js';
import { CAMPAIGN } from '../../api/shapes.js';

export const STATUSES: readonly CampaignStatus[] = ['draft', 'running', 'paused', 'completed', 'stopped'];

export interface EditFlags {
  name?: string;
  body?: string;
  bodyFile?: string;
  channel?: 'secure' | 'sms';
  from?: string;
  interval?: number;
  idempotencyKey?: string;
}

export async function printCampaign(ctx: Context, campaign: Campaign): Promise<void> {
  const { campaignFields, campaignView } = await import('../../campaigns/columns.js');
  await ctx.out.resource(campaign, campaignFields, campaignView);
}

/** The request body for create/update from the flags that were given (PATCH semantics: absent stays absent). */
export async function campaignBody(ctx: Context, flags: EditFlags): Promise<Record<string, unknown>> {
  const { normaliseFrom, readCampaignBody } = await import('../../campaigns/input.js');
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

/** archive / unarchive: PATCH {archived}; the campaign's status does not change. */
export async function setArchived(ctx: Context, id: string, archived: boolean): Promise<void> {
  const { campaignPath } = await import('../../campaigns/input.js');
  const path = campaignPath(id);
  await printCampaign(ctx, await (await ctx.client()).patch(path, { archived }, ctx.signal, CAMPAIGN));
}

/** start / pause / stop: an Idem POST that returns the campaign. */
export async function transition(ctx: Context, id: string, action: 'start' | 'pause' | 'stop', key?: string): Promise<Campaign> {
  const { campaignPath } = await import('../../campaigns/input.js');
  const path = campaignPath(id, `/${action}`);
  const idempotencyKey = ctx.idempotencyKey(key);
  const client = await ctx.client();
  return (await client.request('POST', path, { idempotencyKey, signal: ctx.signal, shape: CAMPAIGN })).data;
}

/** The campaign as the service has it, for a confirmation that names it and counts its recipients. */
export async function fetchCampaign(ctx: Context, id: string): Promise<Campaign> {
  const { campaignPath } = await import('../../campaigns/input.js');
  return (await ctx.client()).get(campaignPath(id), undefined, ctx.signal, CAMPAIGN);
}

/** `"Flu shots" (8dcb…)`: how a confirmation names a campaign. */
export function campaignLabel(campaign: Campaign): string {
  return `"${campaign.name}" (${campaign.id})`;
}

export function recipientCount(n: number): string {
  return `${n} recipient${n === 1 ? '' : 's'}`;
}

/**
 * Why `action` cannot happen to the campaign in its status (api-spec §3.1: start takes a draft or
 * a paused one, stop a running or paused one), as the error a confirmation raises instead of
 * asking: a "yes" would only meet the service's 409. The same exit code (5) and problem code as
 * that 409, so a script sees one answer with or without --yes.
 */
export function transitionRefused(campaign: Campaign, action: 'start' | 'stop'): CliError | null {
  const label = campaignLabel(campaign);
  const id = shellWord(cell(campaign.id));
  const refused = (message: string, hint: string) =>
    new CliError(message, ExitCode.Conflict, [hint], action === 'start' ? 'campaign_not_editable' : 'campaign_not_running');
  const { status, counts } = campaign;
  if (action === 'start') {
    if (status === 'draft' || status === 'paused') return null;
    if (status === 'running') return refused(`Campaign ${label} is already running: there is nothing to start.`, `Follow it with: msgctl campaigns watch ${id}`);
    return refused(
      `Campaign ${label} is ${status} (${counts.sent} sent, ${counts.skipped} skipped): a ${status} campaign cannot be started again.`,
      'To send it again, create a new campaign: msgctl campaigns create --help',
    );
  }
  if (status === 'running' || status === 'paused') return null;
  if (status === 'draft') return refused(`Campaign ${label} is a draft: it has sent nothing, so there is nothing to stop.`, `Delete it if it is not wanted: msgctl campaigns delete ${id}`);
  if (status === 'completed') return refused(`Campaign ${label} is completed: every recipient was sent to or skipped, so there is nothing to stop.`, `See what it sent: msgctl campaigns get ${id}`);
  return refused(`Campaign ${label} is already stopped.`, `See what it sent: msgctl campaigns get ${id}`);
}
