/**
 * `msgctl imports get <id> [--wait]`: one import, optionally followed until
 * the service has finished it. stdout gets the import (with --json the whole
 * object, results included); rows that failed are listed on stderr.
 */
import type { Context } from '../context.js';
import type { PatientImport } from '../../contract/api.js';
import type { Column } from '../output/output.js';
import { ExitCode } from '../exit-codes.js';
import { processedRows, waitForImport } from './follow.js';
import { errorText, importColumns } from './outcomes.js';
import { IMPORT } from '../api/shapes.js';
import { cell } from '../output/terminal-text.js';

const importFields: Column<PatientImport>[] = [
  ...importColumns,
  { header: 'results', value: (i) => (i.results === null ? 'pending' : `${i.results.length} row outcomes (--json for all)`) },
];

export async function runImportGet(ctx: Context, id: string, flags: { wait?: boolean }): Promise<number> {
  const client = await ctx.client();
  let current: PatientImport;
  if (flags.wait) {
    const progress = await ctx.out.progress({ label: id, unit: 'rows' });
    try {
      current = await waitForImport(client, id, {
        signal: ctx.signal,
        onUpdate: (update) => {
          // The bar appears once the service has said how many rows there are, and only while it works on them.
          if (update.status !== 'running') return;
          progress.update(processedRows(update));
          progress.setTotal(update.rows);
        },
      });
    } finally {
      progress.stop();
    }
  } else {
    current = await client.get(`/patient-imports/${encodeURIComponent(id)}`, undefined, ctx.signal, IMPORT);
  }
  await ctx.out.resource(current, importFields);
  if (ctx.out.mode !== 'json') {
    for (const outcome of current.results ?? []) {
      if (outcome.outcome === 'failed') ctx.out.info(`row ${outcome.row} failed: ${outcome.errors.map((e) => cell(errorText(e))).join('; ')}`);
    }
  }
  if (!flags.wait) return ExitCode.Ok;
  return current.failed > 0 || current.status === 'failed' ? ExitCode.Partial : ExitCode.Ok;
}
