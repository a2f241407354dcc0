/** `msgctl campaigns watch <id>`: exit 0 completed, 1 stopped, 130 Ctrl-C (the campaign keeps running). */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, decimal, describeArguments, examples, type Act } from '../kit.js';

/** Shortest poll the CLI allows, so a typo cannot hammer the service. */
const MIN_POLL_SECONDS = 0.05;

function pollSeconds(value: string): number {
  const n = decimal(value);
  if (!Number.isFinite(n) || n < MIN_POLL_SECONDS) throw new InvalidArgumentError(`Must be a number ≥ ${MIN_POLL_SECONDS}.`);
  return n;
}

export interface CampaignsWatchOptions {
  id: string;
  /** Seconds between checks. */
  poll: number;
}

export async function run(ctx: Context, opts: CampaignsWatchOptions): Promise<number> {
  const { watchCampaign } = await import('../../campaigns/watch.js');
  return watchCampaign(ctx, opts.id, { pollMs: opts.poll * 1000 });
}

export function register(campaigns: Command, act: Act, runF: typeof run = run): void {
  const watch = campaigns
    .command('watch <id>')
    .description(
      'Follow a campaign until it completes or is stopped: a live progress bar on a terminal, one JSON line per change when piped or with --json',
    )
    .option('--poll <seconds>', 'how often to check the campaign', pollSeconds, 1)
    .addHelpText(
      'after',
      '\nExit status:\n  0    the campaign completed\n  1    the campaign was stopped\n' +
        '  130  Ctrl-C: watching ended, the campaign keeps running\n  other codes as for every command (4 not found, 8 unavailable…)',
    )
    .action(act((ctx, id: string, flags: { poll: number }) => runF(ctx, { ...flags, id })));
  describeArguments(watch, { id: ARGS.campaignId });
  examples(watch, [
    'msgctl campaigns watch "$ID"',
    'msgctl campaigns watch "$ID" --json | jq -c .counts   # one line per change',
    'msgctl campaigns watch "$ID" >/dev/null; [ $? -eq 1 ] && echo "campaign was stopped"',
  ]);
}
