/**
 * `msgctl send --csv FILE --template TEXT`: one message per row, each sent
 * exactly once across crashes, retries and re-runs (docs/scripting.md,
 * "Nightly reminders from cron").
 *
 * 1. Check the flags; read the whole file once, rendering and validating
 *    every row (and hashing it for the batch id). Invalid rows are listed;
 *    with --strict any of them stops the batch before anything is sent.
 * 2. Lock and read the journal of this batch; read the file again and send
 *    the valid rows that have no final outcome yet.
 * Exit: 0 every row sent (now or earlier), 10 some skipped/failed/invalid,
 * 2 usage (or a dry run that found invalid rows), 130 Ctrl-C (143 SIGTERM); a 401/403 mid-batch stops it with its own code.
 */
import { join, resolve } from 'node:path';
import type { Context } from '../context.js';
import { terminalSafe } from '../output/terminal-text.js';
import type { SendFlags } from '../send/flags.js';
import { UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { stateDir } from '../config/paths.js';
import { batchId, batchIdWithoutTarget } from './identity.js';
import { fetchBatchTarget } from './target.js';
import { DoneRows, JournalWriter, lockJournal, readJournal } from './journal.js';
import { resolveSettings } from './settings.js';
import { fileFingerprint, plannedRows, validatePass, type Validated } from './validate-pass.js';
import { sendPass } from './send-pass.js';
import { dryRun } from './dry-run.js';
import { formatLine, invalidLine, summaryText, BatchTally } from './report.js';

/** Default --retries for a batch: a long unattended run should ride out a bad minute, not give up rows. */
export const BATCH_RETRIES = 8;

export async function runBatchSend(ctx: Context, flags: SendFlags): Promise<number> {
  // The client (credential, HTTP stack) loads while the flags and the file are checked.
  if (!flags.dryRun && !ctx.opts.retriesGiven) ctx.opts.retries = BATCH_RETRIES;
  // The target (base URL + organization) is part of the batch's identity, so a dry run asks for it too.
  const clientReady = ctx.client();
  const targetReady = clientReady.then((client) => fetchBatchTarget(client, ctx.signal));
  targetReady.catch(() => {}); // reported when awaited, after any problem with the flags or the file
  const settings = await resolveSettings(ctx, flags);
  const validated = await validatePass(settings, (row, problems) => {
    ctx.io.stderr.write(`row ${row}: invalid: ${terminalSafe(problems.join('; '))}\n`);
  });
  for (const note of validated.columns.notes) ctx.out.info(`note: ${note}`);
  const batch = batchId(validated.sha256, settings.identity, await targetReady);
  const rows = validated.valid + validated.invalid;
  if (rows === 0) {
    ctx.out.info(`${settings.csv} has no data rows; nothing to send.`);
    return ExitCode.Ok;
  }
  if (validated.valid === 0 && validated.badRecipients === rows) throw wrongRecipientColumn(settings.csv, validated);
  if (validated.ambiguousDates > 0) throw await ambiguousDates(settings.csv, validated);
  if (settings.strict && validated.invalid > 0) {
    // The send pass, where a row's outcome line goes to stdout, does not run: the invalid rows'
    // lines go there from here, so --json and piped output list them as data, as a run without
    // --strict does (not a dry run's: its stdout is the messages it would send). Read from the
    // file again, one row at a time, rather than kept from the first pass: a file of a million
    // invalid rows must not fill the batch thread's bounded heap.
    const onStdout = !settings.dryRun && ctx.out.mode !== 'table';
    if (onStdout) {
      for await (const planned of plannedRows(settings, validated)) {
        if (planned.ok) continue;
        const text = formatLine(ctx.out, invalidLine(planned.row, planned.problems));
        if (text !== null) await ctx.out.write(text);
      }
    }
    throw new UsageError(`${validated.invalid} of ${rows} rows are invalid (listed ${onStdout ? 'on stderr and stdout' : 'above'}); with --strict nothing was sent.`, [
      'Fix those rows, or drop --strict to send the valid rows and skip the rest.',
    ]);
  }
  const journalPath = settings.journal ?? join(stateDir(ctx.env), 'journals', `${batch}.jsonl`);
  if (!settings.journal) await refuseUntargetedJournal(ctx, validated.sha256, settings);

  if (settings.dryRun) {
    const state = await readJournal(journalPath);
    const done = state.batch === batch ? state.done : new DoneRows();
    const counts = await dryRun(ctx, settings, validated, batch, done);
    ctx.out.info(
      `Dry run: ${counts.wouldSend} rows would be sent, ${counts.alreadyDone} already done, ${validated.invalid} invalid;` +
        ` nothing was sent. Batch ${batch}, journal ${journalPath}.`,
    );
    // One rule for every dry run (docs/scripting.md#dry-runs): an invalid row is a local validation error, exit 2.
    return validated.invalid > 0 ? ExitCode.Usage : ExitCode.Ok;
  }

  const client = await clientReady;
  const tally = new BatchTally();
  const unlock = await lockJournal(journalPath);
  let result;
  try {
    const state = await readJournal(journalPath);
    if (state.tornBytes > 0) ctx.out.info(`Journal ${journalPath}: ignored an incomplete last line (an earlier run was cut off).`);
    if (state.batch !== null && state.batch !== batch) {
      ctx.out.info(`Journal ${journalPath} was for another batch (the CSV or flags changed); it is kept as ${journalPath}.previous.`);
    }
    const mine = state.batch === batch ? state.done : new DoneRows();
    const journal = await JournalWriter.open(
      journalPath,
      { journal: 'msgctl send --csv', version: 1, batch, csv: resolve(settings.csv), created_at: new Date().toISOString() },
      state,
    );
    const toSend = Math.max(validated.valid - mine.size, 0);
    // Nothing left to send (a re-run of a finished batch): no bar stuck at "0/1 rows", just the summary.
    const progress = await ctx.out.progress({ enabled: toSend > 0, label: 'sending', total: toSend, unit: 'rows' });
    try {
      if ((await fileFingerprint(settings.csv)) !== validated.fingerprint) {
        throw new UsageError(`${settings.csv} changed while it was being checked; nothing was sent. Run the command again.`);
      }
      result = await sendPass({ ctx, settings, validated, batch, done: mine, journal, client, tally, progress });
    } finally {
      progress.stop();
      await journal.close();
    }
  } finally {
    await unlock();
  }

  tally.notSent = Math.max(validated.valid - tally.attempted - tally.alreadyDone, 0);
  const summary = summaryText(tally, {
    batch,
    csv: settings.csv,
    journal: journalPath,
    interrupted: result.interrupted,
    stoppedBy: result.fatal === undefined ? undefined : (result.fatal as Error).message,
  });
  // The reason it stopped can quote the service (a request id): visible escapes, as in every error.
  if (!ctx.opts.quiet || !tally.allSent || result.interrupted) ctx.io.stderr.write(terminalSafe(summary, { keepLines: true }));
  if (result.fatal !== undefined) throw result.fatal;
  if (result.interrupted) {
    // Shell convention, as for every command: 128 + the signal's number.
    return (ctx.signal.reason as { signal?: string } | undefined)?.signal === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
  }
  return tally.allSent ? ExitCode.Ok : ExitCode.Partial;
}

/**
 * Every row failed on its recipient: the column is the wrong one (an EHR
 * "Patient ID" holding MRNs, with no phone column beside it, say). Nothing
 * could be sent, so this is a usage error naming the way out.
 */
function wrongRecipientColumn(csv: string, validated: Validated): UsageError {
  const { recipient, recipientFrom } = validated.columns;
  const how = recipientFrom === '--to-column' ? 'named by --to-column' : recipientFrom === 'patient_id' ? 'read as patient ids' : 'read as phone numbers';
  const others = validated.headers.filter((h) => h !== recipient);
  return new UsageError(`No row of ${csv} has a usable recipient in column "${recipient}" (${how}); nothing was sent.`, [
    'Name the column that holds phone numbers or the service\'s patient ids with --to-column, e.g. --to-column "Mobile Phone".',
    `Columns in the file: ${others.map((h) => `"${h}"`).join(', ') || '(no other column)'}.`,
  ]);
}

/**
 * Birth dates such as 03/02/1969 that could be read either way round, and no
 * order given: never guessed (util/dates.ts). The whole file shares one way of
 * writing dates, so one flag fixes every row: nothing is sent until it is given.
 */
async function ambiguousDates(csv: string, validated: Validated): Promise<UsageError> {
  const { DATE_ORDER_HINTS } = await import('../util/date-order.js');
  const rows = validated.ambiguousDateRows.join(', ') + (validated.ambiguousDates > validated.ambiguousDateRows.length ? ', …' : '');
  const column = validated.columns.patient.dob ?? 'date of birth';
  return new UsageError(
    `${csv}: ${validated.ambiguousDates === 1 ? '1 row has' : `${validated.ambiguousDates} rows have`} a date in column "${column}" whose day and month could be either way round (row ${rows}); nothing was sent.`,
    [...DATE_ORDER_HINTS],
  );
}

/**
 * A journal an earlier msgctl left for this file and these flags, from before
 * the target was part of a batch's identity: it does not say where it sent,
 * so sending now could repeat messages. The operator decides.
 */
async function refuseUntargetedJournal(ctx: Context, sha256: string, settings: Awaited<ReturnType<typeof resolveSettings>>): Promise<void> {
  const old = join(stateDir(ctx.env), 'journals', `${batchIdWithoutTarget(sha256, settings.identity)}.jsonl`);
  const { access } = await import('node:fs/promises');
  if (!(await access(old).then(() => true, () => false))) return;
  throw new UsageError(`An earlier msgctl version journalled this batch in ${old}, without recording which service and organization it sent to; nothing was sent.`, [
    'Finish that batch with the version that started it, or move the journal aside to send this file as a new batch.',
  ]);
}
