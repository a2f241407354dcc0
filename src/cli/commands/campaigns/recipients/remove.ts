/** `msgctl campaigns recipients remove <id>`: pending recipients only; exit 10 if some could not be removed. */
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { ARGS, describeArguments, collect, examples, type Act } from '../../kit.js';

export interface RecipientsRemoveOptions {
  id: string;
  patient: string[];
}

export async function run(ctx: Context, opts: RecipientsRemoveOptions): Promise<number | void> {
  const { removeRecipients } = await import('../../../campaigns/recipients.js');
  return removeRecipients(ctx, opts.id, opts.patient);
}

export function register(recipients: Command, act: Act, runF: typeof run = run): void {
  const remove = recipients
    .command('remove <id>')
    .description('Remove pending recipients from a draft or paused campaign; exit 10 if some could not be removed')
    .requiredOption('--patient <id>', 'patient id to remove (repeatable)', collect)
    .action(act((ctx, id: string, flags: { patient: string[] }) => runF(ctx, { ...flags, id })));
  describeArguments(remove, { id: ARGS.campaignId });
  examples(remove, ['msgctl campaigns recipients remove "$ID" --patient 3f0c2a4e-8b1d-4c36-9a51-2d0c1e7f9a10']);
}
