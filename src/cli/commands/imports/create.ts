/** `msgctl imports create <file>`: check a patient CSV locally, then import its valid rows; logic in src/cli/imports. */
import type { Command } from 'commander';
import { LIMITS } from '../../../contract/api.js';
import type { Context } from '../../context.js';
import type { CreateFlags } from '../../imports/create.js';
import { describeArguments, collect, dayFirstOption, examples, monthFirstOption, positiveInt, type Act } from '../kit.js';

export interface ImportsCreateOptions extends CreateFlags {
  file: string;
}

export async function run(ctx: Context, opts: ImportsCreateOptions): Promise<number> {
  const { runImportCreate } = await import('../../imports/create.js');
  return runImportCreate(ctx, opts.file, opts);
}

export function register(imports: Command, act: Act, runF: typeof run = run): void {
  const create = imports
    .command('create <file>')
    .description('Check a patient CSV locally, then import its valid rows (one import per 5,000 rows)')
    .option('--dry-run', 'check every row and report; send nothing')
    .option('--wait', 'follow the imports to the end and report the rows (on a terminal, the problem rows and a summary)')
    .option('--all-rows', 'on a terminal too, print every row\'s outcome, not only the rows that need attention')
    .option('--map <column=field>', 'use a column for a field (first_name, last_name, date_of_birth, phone, email, mrn, or ignore); repeatable', collect)
    .option('--region <code>', 'region for phone numbers without a country code (default: profile\'s, else US)')
    .addOption(dayFirstOption())
    .addOption(monthFirstOption())
    .option('--chunk-size <n>', `rows per import, at most ${LIMITS.importMaxRows}`, positiveInt)
    .option('--idempotency-key <uuid>', 'derive the uploads\' keys from this instead of the file\'s content')
    .action(act((ctx, file: string, flags: CreateFlags) => runF(ctx, { ...flags, file })));
  describeArguments(create, { file: 'the CSV file (UTF-8 or UTF-16; `,` `;` or tab; a header line)' });
  examples(create, [
    'msgctl imports create roster.csv --dry-run',
    'msgctl imports create roster.csv --wait',
    'msgctl imports create export.csv --map "Cell Phone=phone" --map "Chart=mrn" --wait --json > outcomes.jsonl',
  ]);
}
