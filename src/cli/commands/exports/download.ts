/** `msgctl exports download <export-id>`: the file to stdout or -o FILE; the download is src/cli/exports. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';

export interface ExportsDownloadOptions {
  exportId: string;
  wait?: boolean;
  /** CSV: keep cells that a spreadsheet would run as formulas. */
  keepFormulas?: boolean;
}

export async function run(ctx: Context, opts: ExportsDownloadOptions): Promise<void> {
  const { downloadExport } = await import('../../exports/download.js');
  await downloadExport(ctx, opts.exportId, opts);
}

export function register(exportsCmd: Command, act: Act, runF: typeof run = run): void {
  const download = exportsCmd
    .command('download')
    .description('Download a ready export\'s file to stdout or -o FILE (fetches a fresh download_url)')
    .argument('<export-id>', 'export (UUID)', uuidArg('export id'))
    .option('--wait', 'wait for a running export to be ready first')
    .option('--keep-formulas', 'CSV: keep cells starting with = + - @ as they are (by default they get a leading \' so spreadsheets show them as text)')
    .action(act((ctx, exportId: string, flags: Omit<ExportsDownloadOptions, 'exportId'>) => runF(ctx, { ...flags, exportId })));
  examples(download, ['msgctl exports download "$ID" -o conversation.json', 'msgctl exports download "$ID" | jq ".messages | length"']);
}
