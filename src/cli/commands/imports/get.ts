/** `msgctl imports get <id>`: a patient import (GET /patient-imports/{id}); --wait follows it to the end. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';

export interface ImportsGetOptions {
  id: string;
  wait?: boolean;
}

export async function run(ctx: Context, opts: ImportsGetOptions): Promise<number> {
  const { runImportGet } = await import('../../imports/get.js');
  return runImportGet(ctx, opts.id, opts);
}

export function register(imports: Command, act: Act, runF: typeof run = run): void {
  const get = imports
    .command('get <id>')
    .description('Show a patient import (GET /patient-imports/{id})')
    .option('--wait', 'follow the import until it has finished')
    .action(act((ctx, id: string, flags: { wait?: boolean }) => runF(ctx, { ...flags, id })));
  formatOptions(get, FIELDS.import);
  describeArguments(get, { id: ARGS.importId });
  examples(get, ['msgctl imports get imp_3f0c2a4e8b1d4c369a512d0c', 'msgctl imports get "$ID" --wait --json | jq -c ".results[]"']);
}
