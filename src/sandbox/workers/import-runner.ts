/**
 * Runs patient imports in the background. Each import is worked through in
 * small batches, one timer per batch, so the event loop keeps answering
 * requests between batches and progress (`created`, `matched`, `failed`)
 * moves visibly. Rows take ROW_MS of sandbox time each, scaled by
 * --time-scale (0 runs them as fast as the CPU allows).
 *
 * On start, imports still `running` in a --data file carry on where they
 * stopped.
 */
import type { SandboxContext } from '../context.js';
import { advanceImport, failImport, importTable, IMPORT_CREATED, type ImportRecord } from '../domain/imports.js';

/** Sandbox time one row takes; a full 5,000-row import runs for 50 s at --time-scale 1. */
export const ROW_MS = 10;
/** Rows per batch: small enough to stay responsive, large enough to keep timer overhead low. */
const BATCH_ROWS = 50;
/** Real time one batch may take before yielding to requests, however slow rows get. */
const BATCH_BUDGET_MS = 20;

export function startImportRunner(sb: SandboxContext): () => void {
  let stopped = false;
  const table = importTable(sb.store);

  const step = (record: ImportRecord) => {
    if (stopped) return;
    let finished: boolean;
    try {
      // One write-back per batch, not one per patient created (see Store.deferChanges).
      finished = sb.store.deferChanges(() => advanceImport(sb, record, BATCH_ROWS, BATCH_BUDGET_MS));
    } catch (err) {
      sb.options.log?.(`import ${record.id} stopped: ${(err as Error).stack}`);
      failImport(sb, record);
      return;
    }
    if (!finished) schedule(record);
  };
  const schedule = (record: ImportRecord) => {
    sb.later(Math.min(BATCH_ROWS, record.pending.length) * ROW_MS, () => {
      // Re-read after the wait: records are database rows, not objects kept between turns.
      const current = table.get(record.id);
      if (current?.status === 'running') step(current);
    });
  };
  const onCreated = (id: string) => {
    const record = table.get(id);
    if (record?.status === 'running') schedule(record);
  };

  sb.events.on(IMPORT_CREATED, onCreated);
  for (const record of table.values()) if (record.status === 'running') schedule(record);
  return () => {
    stopped = true;
    sb.events.off(IMPORT_CREATED, onCreated);
  };
}
