/**
 * `send --csv --dry-run`: every message as it would be sent, with its
 * Idempotency-Key, and nothing sent. Rows the journal already has are
 * marked, so a dry run before a re-run shows what is left.
 */
import type { Context } from '../context.js';
import type { SendMessageRequest } from '../../contract/api.js';
import { cell, stringifyWellFormed, terminalSafe } from '../output/terminal-text.js';
import { rowKey } from './identity.js';
import type { DoneRows } from './journal.js';
import type { BatchSettings } from './settings.js';
import { plannedRows, type Validated } from './validate-pass.js';

export interface DryRunCounts {
  wouldSend: number;
  alreadyDone: number;
}

export async function dryRun(ctx: Context, settings: BatchSettings, validated: Validated, batch: string, done: DoneRows): Promise<DryRunCounts> {
  const counts: DryRunCounts = { wouldSend: 0, alreadyDone: 0 };
  for await (const planned of plannedRows(settings, validated)) {
    if (!planned.ok) continue; // listed on stderr by the validation pass
    const already = done.get(planned.row) !== undefined;
    if (already) counts.alreadyDone++;
    else counts.wouldSend++;
    await ctx.out.write(render(ctx, planned.row, planned.request, rowKey(batch, planned.row, planned.request), already));
  }
  return counts;
}

function render(ctx: Context, row: number, request: SendMessageRequest, key: string, already: boolean): string {
  const to = 'phone' in request.to ? request.to.phone : request.to.patient_id;
  const channel = request.channel ?? 'secure';
  const from = request.from ?? null;
  if (ctx.out.mode === 'json') {
    const line: Record<string, unknown> = { row, to, body: request.body, channel, from, idempotency_key: key };
    if (already) line.already_done = true;
    return stringifyWellFormed(line) + '\n';
  }
  if (ctx.out.mode === 'plain') {
    // Piped: tab-separated like every piped output, free text last and escaped (cell), and the
    // run column of a batch's outcome lines: `now` would be sent, `earlier` was done by an earlier run.
    return [row, cell(to), channel, cell(from ?? ''), key, already ? 'earlier' : 'now', cell(request.body)].join('\t') + '\n';
  }
  const note = already ? ' [already done, not sent again]' : '';
  return terminalSafe(`row ${row} → ${to} (${channel}, from ${from ?? 'the default number'})${note}: ${JSON.stringify(request.body)}`) + '\n';
}
