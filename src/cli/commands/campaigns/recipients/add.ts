/** `msgctl campaigns recipients add <id>`: by patient id or from a CSV; exit 10 if some could not be added. */
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { ARGS, describeArguments, collect, examples, type Act } from '../../kit.js';

export interface RecipientsAddOptions {
  id: string;
  patient?: string[];
  csv?: string;
  region?: string;
}

export async function run(ctx: Context, opts: RecipientsAddOptions): Promise<number | void> {
  if ((opts.patient === undefined) === (opts.csv === undefined)) throw new UsageError('Give --patient ID (repeatable) or --csv FILE.');
  const { addRecipients } = await import('../../../campaigns/recipients.js');
  return addRecipients(ctx, opts.id, opts);
}

export function register(recipients: Command, act: Act, runF: typeof run = run): void {
  const add = recipients
    .command('add <id>')
    .description(
      'Add patients to a draft or paused campaign, by id or from a CSV of patient ids, MRNs or phones; exit 10 if some could not be added',
    )
    .option('--patient <id>', 'patient id to add (repeatable)', collect)
    .option('--csv <file>', 'CSV with a patient_id, mrn or phone column (one patient per row, sent in file order)')
    .option('--region <code>', 'region for CSV phone numbers without a country code (default: profile, else US)')
    .action(act((ctx, id: string, flags: Omit<RecipientsAddOptions, 'id'>) => runF(ctx, { ...flags, id })));
  describeArguments(add, { id: ARGS.campaignId });
  examples(add, [
    'msgctl campaigns recipients add "$ID" --patient 3f0c2a4e-8b1d-4c36-9a51-2d0c1e7f9a10 --patient 7d9f…',
    'msgctl campaigns recipients add "$ID" --csv recall-list.csv   # columns: patient_id, or mrn, or phone',
  ]);
}
