/**
 * Second pass over the CSV: send every valid row the journal does not
 * already have, at most `concurrency` at a time, journal each final outcome
 * and print one line per row.
 *
 * Rate limits and retries live in the shared ApiClient: a 429 holds back
 * every request of the batch until Retry-After has passed, and 5xx or lost
 * connections are retried with the row's own key. Ctrl-C stops taking rows;
 * requests in flight get GRACE_MS to finish (their answers are journalled)
 * and are then abandoned, which is safe because a re-run sends the same keys.
 */
import type { Context } from '../context.js';
import type { ApiClient } from '../api/client.js';
import type { SendMessageRequest } from '../../contract/api.js';
import { SENT_MESSAGE } from '../api/shapes.js';
import type { Progress } from '../output/progress.js';
import { backoffDelayMs } from '../api/retry-policy.js';
import { sleep } from '../util/sleep.js';
import { rowKey } from './identity.js';
import { classifyError, isFinal, type Classified } from './outcome.js';
import { formatLine, invalidLine, lineFor, type RowLine, type BatchTally } from './report.js';
import type { DoneRows, JournalWriter } from './journal.js';
import type { BatchSettings } from './settings.js';
import { plannedRows, type Validated } from './validate-pass.js';

const GRACE_MS = 3000;
/** 409 idempotency_request_in_progress: an earlier run's request for this row is still being handled. */
const IN_PROGRESS_RETRIES = 4;
const OUTPUT_CHUNK = 16 * 1024;
/** The longest a row's line waits for others before it is printed. */
const OUTPUT_DELAY_MS = 100;

export interface SendPassInput {
  ctx: Context;
  settings: BatchSettings;
  validated: Validated;
  batch: string;
  done: DoneRows;
  journal: JournalWriter;
  client: ApiClient;
  tally: BatchTally;
  progress: Progress;
}

export interface SendPassResult {
  interrupted: boolean;
  /** Why the batch stopped early (a 401/403, the journal failing), to rethrow after the summary. */
  fatal?: unknown;
}

export async function sendPass(input: SendPassInput): Promise<SendPassResult> {
  const { ctx, settings, validated, batch, done, journal, client, tally, progress } = input;
  const inflight = new AbortController();
  let interrupted = false;
  let fatal: unknown;
  let grace: NodeJS.Timeout | undefined;
  const onInterrupt = () => {
    interrupted = true;
    grace = setTimeout(() => inflight.abort(ctx.signal.reason), GRACE_MS);
  };
  if (ctx.signal.aborted) onInterrupt();
  else ctx.signal.addEventListener('abort', onInterrupt, { once: true });
  const stopping = () => interrupted || fatal !== undefined || journal.error !== null;

  // Row lines are gathered and written a chunk at a time, at most OUTPUT_DELAY_MS after the first
  // of them: in the batch thread every write is a message to the main thread, and one per row (or
  // per turn of the event loop, which at concurrency 4 is nearly one per row) was a fifth of the
  // CLI's CPU, taken from the service when both share a machine.
  let pendingOutput = '';
  let outputTimer: NodeJS.Timeout | undefined;
  const writeOutput = async () => {
    clearTimeout(outputTimer);
    outputTimer = undefined;
    if (pendingOutput === '') return;
    const text = pendingOutput;
    pendingOutput = '';
    await ctx.out.write(text);
  };
  const emit = async (line: RowLine) => {
    const text = formatLine(ctx.out, line);
    if (text === null) return;
    if (ctx.out.mode === 'table') return progress.pause(() => ctx.out.write(text));
    pendingOutput += text;
    if (pendingOutput.length >= OUTPUT_CHUNK) await writeOutput();
    else outputTimer ??= setTimeout(() => void writeOutput(), OUTPUT_DELAY_MS);
  };

  const deliver = async (request: SendMessageRequest, key: string): Promise<Classified> => {
    for (let attempt = 0; ; attempt++) {
      let result: Classified;
      try {
        const response = await client.request('POST', '/patient-messages', {
          body: request,
          idempotencyKey: key,
          signal: inflight.signal,
          shape: SENT_MESSAGE,
          mayHaveTakenEffect: "The row's message may have been sent all the same: the same command again sends it with the same Idempotency-Key, so it is not sent twice.",
        });
        return { outcome: 'sent', messageId: response.data.message.id, requestId: response.requestId };
      } catch (err) {
        result = classifyError(err);
      }
      const inProgress = result.outcome === 'failed' && result.code === 'idempotency_request_in_progress';
      if (!inProgress || attempt >= IN_PROGRESS_RETRIES || stopping()) return result;
      try {
        await sleep(backoffDelayMs(attempt + 2), inflight.signal);
      } catch {
        return { outcome: 'interrupted' };
      }
    }
  };

  const sendRow = async (row: number, request: SendMessageRequest) => {
    const key = rowKey(batch, row, request);
    const result = await deliver(request, key);
    if (result.outcome === 'interrupted') return;
    if (result.outcome === 'fatal') {
      fatal ??= result.error;
      return;
    }
    if (isFinal(result)) {
      journal.record({
        row,
        outcome: result.outcome,
        key,
        ...(result.outcome === 'sent' ? { message_id: result.messageId } : { code: result.code }),
        request_id: result.requestId,
        at: new Date().toISOString(),
      });
    }
    tally.add(result);
    progress.update(tally.attempted);
    await emit(lineFor(row, result));
  };

  // Rows in flight, and a wake-up for the loop waiting for a free slot.
  let running = 0;
  let slotFreed: (() => void) | null = null;
  const nextFreeSlot = () => new Promise<void>((resolve) => (slotFreed = resolve));
  // One async function per row rather than .catch().finally() on sendRow's promise: two promises fewer per row.
  const start = async (row: number, request: SendMessageRequest) => {
    running++;
    try {
      await sendRow(row, request);
    } catch (err) {
      fatal ??= err;
    } finally {
      running--;
      slotFreed?.();
      slotFreed = null;
    }
  };

  try {
    for await (const planned of plannedRows(settings, validated)) {
      if (stopping()) break;
      if (!planned.ok) {
        tally.invalid++;
        await emit(invalidLine(planned.row, planned.problems));
        continue;
      }
      const previous = done.get(planned.row);
      if (previous !== undefined) {
        tally.already[previous]++;
        // With the earlier run's code for a row it did not send (why it needs a look), as the journal has it.
        const code = previous === 'sent' ? undefined : done.codeOf(planned.row);
        await emit({ row: planned.row, outcome: previous, ...(code === undefined ? {} : { code }), already_done: true });
        continue;
      }
      void start(planned.row, planned.request);
      if (running >= settings.concurrency) await nextFreeSlot();
    }
  } finally {
    while (running > 0) await nextFreeSlot();
    await writeOutput();
    clearTimeout(grace);
    ctx.signal.removeEventListener('abort', onInterrupt);
  }
  fatal ??= journal.error ?? undefined;
  return { interrupted, fatal };
}
