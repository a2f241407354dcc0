import type { Command } from 'commander';
import type { CampaignRecipient } from '../../contract/api.js';
import { RECIPIENT_STATUSES } from '../../contract/api.js';
import { UsageError } from '../errors.js';
import { choices, collect, examples, positiveInt, type Act } from './kit.js';

/** `msgctl campaigns recipients list|add|remove`. */
export function registerCampaignRecipients(campaigns: Command, act: Act): void {
  const recipients = campaigns.command('recipients').description('List, add and remove the patients a campaign goes to');
  examples(recipients, ['msgctl campaigns recipients add "$ID" --csv patients.csv', 'msgctl campaigns recipients list "$ID" --status failed']);

  const list = recipients
    .command('list <id>')
    .description('List recipients in send order, with their status (GET /campaigns/{id}/recipients)')
    .option('--status <status>', 'only recipients in this status', choices(RECIPIENT_STATUSES))
    .option('--limit <n>', 'print at most this many recipients', positiveInt, 50)
    .option('--all', 'print every recipient, following all pages')
    .action(
      act(async (ctx, id: string, flags: { status?: string; limit: number; all?: boolean }) => {
        const [{ campaignPath }, { recipientColumns }] = await Promise.all([
          import('../campaigns/input.js'),
          import('../campaigns/columns.js'),
        ]);
        const path = campaignPath(id, '/recipients');
        const client = await ctx.client();
        const rows = client.paginate<CampaignRecipient>(path, { status: flags.status }, {
          limit: flags.all ? undefined : flags.limit,
          signal: ctx.signal,
        });
        await ctx.out.list(rows, recipientColumns, { empty: 'No recipients found.' });
      }),
    );
  examples(list, [
    'msgctl campaigns recipients list "$ID" --all',
    'msgctl campaigns recipients list "$ID" --status skipped --all --json | jq -r .error.code',
  ]);

  const add = recipients
    .command('add <id>')
    .description(
      'Add patients to a draft or paused campaign, by id or from a CSV of patient ids, MRNs or phones; exit 10 if some could not be added',
    )
    .option('--patient <id>', 'patient id to add (repeatable)', collect)
    .option('--csv <file>', 'CSV with a patient_id, mrn or phone column (one patient per row, sent in file order)')
    .option('--region <code>', 'region for CSV phone numbers without a country code (default: profile, else US)')
    .action(
      act(async (ctx, id: string, flags: { patient?: string[]; csv?: string; region?: string }) => {
        if ((flags.patient === undefined) === (flags.csv === undefined)) throw new UsageError('Give --patient ID (repeatable) or --csv FILE.');
        const { addRecipients } = await import('../campaigns/recipients.js');
        return addRecipients(ctx, id, flags);
      }),
    );
  examples(add, [
    'msgctl campaigns recipients add "$ID" --patient 3f0c2a4e-8b1d-4c36-9a51-2d0c1e7f9a10 --patient 7d9f…',
    'msgctl campaigns recipients add "$ID" --csv recall-list.csv   # columns: patient_id, or mrn, or phone',
  ]);

  const remove = recipients
    .command('remove <id>')
    .description('Remove pending recipients from a draft or paused campaign; exit 10 if some could not be removed')
    .requiredOption('--patient <id>', 'patient id to remove (repeatable)', collect)
    .action(
      act(async (ctx, id: string, flags: { patient: string[] }) => {
        const { removeRecipients } = await import('../campaigns/recipients.js');
        return removeRecipients(ctx, id, flags.patient);
      }),
    );
  examples(remove, ['msgctl campaigns recipients remove "$ID" --patient 3f0c2a4e-8b1d-4c36-9a51-2d0c1e7f9a10']);
}
