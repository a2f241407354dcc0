/**
 * What a batch prints: one line per row on stdout (JSON with --json,
 * tab-separated when piped, only the rows that need attention on a
 * terminal), and the summary on stderr with how to resume.
 */
import type { Output } from '../output/output.js';
import type { FinalOutcome } from './journal.js';
import type { RowOutcome } from './outcome.js';
import { cell } from '../output/terminal-text.js';
import { stringifyWellFormed } from '../output/terminal-text.js';

export interface RowLine {
  row: number;
  outcome: FinalOutcome | 'invalid';
  message_id?: string;
  code?: string;
  detail?: string;
  request_id?: string | null;
  /** A failure the next run retries (429/5xx/connection after every retry). */
  retryable?: true;
  /** The journal already had this row's outcome: nothing was sent for it now. */
  already_done?: true;
}

/** A row that failed its local checks, as both passes report it (send-pass.ts; --strict in run-batch-send.ts). */
export function invalidLine(row: number, problems: readonly string[]): RowLine {
  return { row, outcome: 'invalid', code: 'invalid_row', detail: problems.join('; ') };
}

export function lineFor(row: number, result: RowOutcome): RowLine {
  if (result.outcome === 'sent') return { row, outcome: 'sent', message_id: result.messageId, request_id: result.requestId };
  const line: RowLine = { row, outcome: result.outcome, code: result.code };
  if (result.detail) line.detail = result.detail;
  line.request_id = result.requestId;
  if (result.outcome === 'failed' && !result.final) line.retryable = true;
  return line;
}

export function formatLine(out: Output, line: RowLine): string | null {
  if (out.mode === 'json') return stringifyWellFormed(line) + '\n';
  if (out.mode === 'plain') {
    // row, outcome (one token: sent|skipped|failed|invalid, so `awk '$2=="sent"'` works), id or code,
    // run (now|earlier: an earlier run's outcome, from the journal, nothing sent now), detail (docs/scripting.md).
    // The service's id or code through cell() as the detail is: a tab or newline in it would forge fields or rows.
    const what = cell(line.message_id ?? line.code ?? '');
    return [line.row, line.outcome, what, line.already_done ? 'earlier' : 'now', cell(line.detail)].join('\t') + '\n';
  }
  // On a terminal, invalid rows were listed before sending, and sent rows show on the progress bar.
  if (line.outcome === 'sent' || line.outcome === 'invalid' || line.already_done) return null;
  const retry = line.retryable ? '; a re-run retries it' : '';
  return `row ${line.row}: ${line.outcome}${line.code ? ` (${cell(line.code)})` : ''}${line.detail ? `: ${cell(line.detail)}` : ''}${retry}\n`;
}

/**
 * Running totals of one `send --csv` run: what was sent, skipped, failed or
 * left for a re-run (not the same counts as an import's, hence its own name).
 */
export class BatchTally {
  sent = 0;
  skipped = 0;
  failed = 0;
  retryable = 0;
  invalid = 0;
  already = { sent: 0, skipped: 0, failed: 0 };
  /** Valid rows the run never reached (interrupted or stopped). */
  notSent = 0;
  readonly codes = new Map<string, number>();

  add(result: RowOutcome): void {
    if (result.outcome === 'sent') this.sent++;
    else {
      if (result.outcome === 'skipped') this.skipped++;
      else if (result.final) this.failed++;
      else this.retryable++;
      const label = `${result.outcome} ${result.code}`;
      this.codes.set(label, (this.codes.get(label) ?? 0) + 1);
    }
  }

  get alreadyDone(): number {
    return this.already.sent + this.already.skipped + this.already.failed;
  }

  get attempted(): number {
    return this.sent + this.skipped + this.failed + this.retryable;
  }

  /** True when every row of the batch has been sent, in this run or an earlier one. */
  get allSent(): boolean {
    return this.skipped + this.failed + this.retryable + this.invalid + this.notSent + this.already.skipped + this.already.failed === 0;
  }
}

export interface SummaryContext {
  batch: string;
  csv: string;
  journal: string | null;
  interrupted: boolean;
  stoppedBy?: string;
}

export function summaryText(t: BatchTally, s: SummaryContext): string {
  const lines: string[] = [];
  const total = t.attempted + t.invalid + t.alreadyDone + t.notSent;
  if (t.attempted === 0 && t.alreadyDone > 0 && t.alreadyDone + t.invalid === total && !s.interrupted) {
    lines.push(
      `All ${t.alreadyDone} ${t.invalid ? 'valid ' : ''}rows of ${s.csv} were already done in an earlier run; nothing was sent` +
        ` (${t.already.sent} sent, ${t.already.skipped} skipped, ${t.already.failed} failed${t.invalid ? `, ${t.invalid} invalid` : ''}).`,
    );
  } else {
    // What earlier runs did not send counts toward exit 10 too: say what it was.
    const earlierNotSent = t.already.skipped + t.already.failed;
    const already = `${t.alreadyDone} already done${earlierNotSent ? ` (${t.already.sent} sent, ${t.already.skipped} skipped, ${t.already.failed} failed)` : ''}`;
    const parts = [`${t.sent} sent`, `${t.skipped} skipped`, `${t.failed + t.retryable} failed`, `${t.invalid} invalid`, already];
    if (t.notSent) parts.push(`${t.notSent} not sent yet`);
    lines.push(`${s.interrupted ? 'Interrupted' : s.stoppedBy ? 'Stopped' : 'Done'}: ${parts.join(', ')} (${total} rows of ${s.csv}).`);
  }
  for (const [label, count] of [...t.codes].sort((a, b) => b[1] - a[1])) lines.push(`  ${label}: ${count}`);
  if (s.stoppedBy) lines.push(`  stopped: ${s.stoppedBy}`);
  lines.push(`Batch ${s.batch}${s.journal ? `, journal ${s.journal}` : ''}.`);
  const resume: string[] = [];
  if (s.interrupted || t.notSent) resume.push(`send the ${t.notSent} rows not sent yet`);
  if (t.retryable) resume.push(`retry the ${t.retryable} that failed for a temporary reason`);
  if (resume.length) {
    lines.push(`To ${resume.join(' and ')}, run the same command again: rows already done are not sent twice.`);
  }
  return lines.join('\n') + '\n';
}
