/**
 * Runs conversation exports in the background: an export started by
 * POST /conversations/{id}/exports becomes `ready` after EXPORT_DURATION_MS
 * of sandbox time (so `--wait` and export.ready have something to wait for),
 * holding the conversation's messages as they were at that moment. Exports
 * left running by a previous run (--data) finish after a restart.
 */
import type { SandboxContext } from '../context.js';
import { exportsTable, type ExportRecord } from '../domain/exports.js';

export const EXPORT_DURATION_MS = 1500;

export function startExportRunner(sb: SandboxContext): () => void {
  const run = (record: ExportRecord) => {
    sb.later(EXPORT_DURATION_MS, () => {
      const current = exportsTable(sb).get(record.id);
      if (!current || current.status !== 'running') return;
      // Everything in the conversation now: no message can have a seq above the store's counter.
      current.lastSeq = sb.store.currentSeq();
      current.status = 'ready';
      current.ready_at = sb.clock.iso();
      sb.store.changed();
      sb.events.emit('export.ready', current);
    });
  };
  sb.events.on('export.requested', run);
  for (const record of exportsTable(sb).values()) if (record.status === 'running') run(record);
  return () => sb.events.off('export.requested', run);
}
