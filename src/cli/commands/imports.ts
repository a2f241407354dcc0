import type { Command } from 'commander';
import type { CreateFlags } from '../imports/create.js';
import { collect, examples, positiveInt, type Act } from './kit.js';

export function registerImports(program: Command, act: Act): void {
  const imports = program.command('imports').description('Import patients from a CSV file and follow imports (docs/imports.md)');
  examples(imports, ['msgctl imports create roster.csv --wait', 'msgctl imports get imp_3f0c2a4e8b1d4c369a512d0c --wait']);

  const create = imports
    .command('create <file>')
    .description('Check a patient CSV locally, then import its valid rows (one import per 5,000 rows)')
    .option('--dry-run', 'check every row and report; send nothing')
    .option('--wait', 'follow the imports to the end and print every row\'s outcome')
    .option('--map <column=field>', 'use a column for a field (first_name, last_name, date_of_birth, phone, email, mrn, or ignore); repeatable', collect)
    .option('--region <code>', 'region for phone numbers without a country code (default: profile\'s, else US)')
    .option('--day-first', 'read numeric dates such as 03/02/1969 as day/month/year')
    .option('--chunk-size <n>', 'rows per import, at most 5000', positiveInt)
    .option('--idempotency-key <uuid>', 'derive the uploads\' keys from this instead of the file\'s content')
    .action(act(async (ctx, file: string, flags: CreateFlags) => {
      const { runImportCreate } = await import('../imports/create.js');
      return runImportCreate(ctx, file, flags);
    }));
  examples(create, [
    'msgctl imports create roster.csv --dry-run',
    'msgctl imports create roster.csv --wait',
    'msgctl imports create export.csv --map "Cell Phone=phone" --map "Chart=mrn" --wait --json > outcomes.jsonl',
  ]);

  const get = imports
    .command('get <id>')
    .description('Show a patient import (GET /patient-imports/{id})')
    .option('--wait', 'follow the import until it has finished')
    .action(act(async (ctx, id: string, flags: { wait?: boolean }) => {
      const { runImportGet } = await import('../imports/get.js');
      return runImportGet(ctx, id, flags);
    }));
  examples(get, ['msgctl imports get imp_3f0c2a4e8b1d4c369a512d0c', 'msgctl imports get "$ID" --wait --json | jq -c ".results[]"']);
}
