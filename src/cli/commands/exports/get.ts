/** `msgctl exports get <export-id>` (GET /exports/{id}); once ready it has a download_url valid for 5 minutes. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Export } from '../../../contract/api.js';
import type { Context } from '../../context.js';
import { examples, type Act, formatOptions } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';
import { exportFields } from './common.js';
import { EXPORT } from '../../api/shapes.js';

export interface ExportsGetOptions {
  exportId: string;
  wait?: boolean;
}

export async function run(ctx: Context, opts: ExportsGetOptions): Promise<void> {
  const client = await ctx.client();
  let current: Export;
  if (opts.wait) {
    const { waitForExport } = await import('../../exports/follow.js');
    current = await waitForExport(client, opts.exportId, ctx.signal, undefined, ctx.out);
  } else {
    current = await client.get(`/exports/${opts.exportId}`, undefined, ctx.signal, EXPORT);
  }
  await ctx.out.resource(current, exportFields);
}

export function register(exportsCmd: Command, act: Act, runF: typeof run = run): void {
  const get = exportsCmd
    .command('get')
    .description('Show an export (GET /exports/{id}); once ready it has a download_url valid for 5 minutes')
    .argument('<export-id>', 'export (UUID)', uuidArg('export id'))
    .option('--wait', 'wait until the export is no longer running')
    .action(act((ctx, exportId: string, flags: { wait?: boolean }) => runF(ctx, { ...flags, exportId })));
  formatOptions(get, FIELDS.export);
  examples(get, ['msgctl exports get "$ID"', 'msgctl exports get "$ID" --wait --json | jq -r .download_url']);
}
