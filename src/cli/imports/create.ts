/**
 * `msgctl imports create FILE`: validate a patient CSV locally, upload its
 * valid rows as one import per chunk, optionally follow them to the end, and
 * report every row. docs/imports.md is the user's side of this.
 *
 * The file is read twice, streaming both times. The first pass parses every
 * record and hashes the bytes: a file that turns out unusable halfway, such
 * as an unclosed quote, is refused before anything is sent, the progress bar
 * knows the exact row count, and the upload keys know the file. The second
 * pass checks each row's fields (the costly part, done once) and uploads,
 * holding one chunk at a time. A dry run is the second pass without upload.
 */
import type { Context } from '../context.js';
import { LIMITS, type PatientImport } from '../../contract/api.js';
import { cell, terminalSafe } from '../output/terminal-text.js';
import type { ApiClient } from '../api/client.js';
import { UsageError } from '../errors.js';
import { idempotencyKeyFlag } from '../util/ids.js';
import { ExitCode } from '../exit-codes.js';
import { openCsv, type CsvFile } from '../csv/read.js';
import { mapPatientColumns, parseColumnOverrides, type ColumnOverride, type PatientColumnMapping } from '../csv/patient-columns.js';
import { isSupportedRegion } from '../util/phone.js';
import { isAmbiguousDate, type DateOrder } from '../util/dates.js';
import { DATE_ORDER_HINTS, resolveDateOrder } from '../util/date-order.js';
import { chunksOf, type Chunk, type ValidRows } from './chunks.js';
import { BodyBytes, ImportBody } from './body.js';
import { chunkKeyOf, hashedFile, uploadNamespace } from './keys.js';
import { dryRunColumns, formatInvalidRows, importColumns, isProblem, mergeByRow, outcomeColumns, plural, problemText, serviceOutcome, ImportTally, type RowOutcome } from './outcomes.js';
import { processedRows, waitForImportResults } from './follow.js';
import { inRowOrder } from './results.js';
import type { Progress } from '../output/progress.js';
import { IMPORT } from '../api/shapes.js';
import { shellWord } from '../util/shell-word.js';

export interface CreateFlags {
  dryRun?: boolean;
  wait?: boolean;
  map?: string[];
  region?: string;
  dayFirst?: boolean;
  monthFirst?: boolean;
  idempotencyKey?: string;
  chunkSize?: number;
  /** On a terminal, every row's outcome (not only the problem rows). */
  allRows?: boolean;
}

interface Plan {
  file: string;
  overrides: ColumnOverride[];
  rowOptions: { region: string; dateOrder?: DateOrder; dateOrderFrom?: string; size: number };
}

export async function runImportCreate(ctx: Context, file: string, flags: CreateFlags): Promise<number> {
  const region = await ctx.region(flags.region);
  if (!isSupportedRegion(region)) {
    throw new UsageError(`--region "${region}" is not a region code msgctl knows`, ['Use a two-letter country code such as US, CA or GB.']);
  }
  const size = flags.chunkSize ?? LIMITS.importMaxRows;
  // Rows per import the service accepts (docs/imports.md); chunks never exceed it.
  if (size > LIMITS.importMaxRows) throw new UsageError(`--chunk-size may be at most ${LIMITS.importMaxRows}, the service's limit per import.`);
  // A seed the chunk keys are derived from, not a key sent: checked as one, never noted as one a re-run can send.
  const callerKey = flags.idempotencyKey === undefined ? undefined : idempotencyKeyFlag(flags.idempotencyKey);
  const dates = resolveDateOrder(flags, await ctx.profile(), await ctx.profileName());
  const plan: Plan = {
    file,
    overrides: parseColumnOverrides(flags.map ?? []),
    rowOptions: { region: region.toUpperCase(), dateOrder: dates.order, dateOrderFrom: dates.from, size },
  };

  const tally = new ImportTally();
  // A person at a terminal reads the problem rows and the summary; scripts (piped, --json) and --all-rows get every row.
  const problemsOnly = ctx.out.mode === 'table' && !flags.allRows;
  if (flags.dryRun) {
    await checkRows(ctx, plan, tally, problemsOnly);
    ctx.out.info(tally.summary('dry-run'));
    return tally.invalid > 0 ? ExitCode.Usage : ExitCode.Ok;
  }

  const scanned = await scanFile(ctx, plan);
  const sentIds: string[] = [];
  if (scanned.dataRows === 0) throw new UsageError(`${file}: the file has a header but no rows to import`);
  const client = await ctx.client();
  // The keys depend on where the rows go (base URL + organization): asked once, when the first chunk is sent.
  let namespaceReady: Promise<string> | undefined;
  const namespace = () =>
    (namespaceReady ??= import('../batch/target.js')
      .then(({ fetchBatchTarget }) => fetchBatchTarget(client, ctx.signal))
      .then((target) => uploadNamespace(callerKey ? { callerKey } : { sha256: scanned.sha256 }, target)));
  try {
    if (flags.wait) await uploadAndFollow(ctx, client, plan, namespace, tally, scanned.dataRows, problemsOnly, sentIds);
    else await ctx.out.list(upload(ctx, client, plan, namespace, tally, sentIds), importColumns, { pager: false });
  } catch (error) {
    if (tally.imports > 0) {
      ctx.out.warn(
        `stopped after sending ${plural(tally.imports, 'import')}; those keep running in the service. ` +
          'Run the same command again to finish: chunks already sent are replayed, not imported twice.',
      );
    }
    throw error;
  } finally {
    // For completion of `imports get <TAB>`: the API cannot list imports (imports/recent.ts).
    const { rememberImports } = await import('./recent.js');
    await ctx.baseUrl().then((url) => rememberImports(ctx.env, url, sentIds), () => undefined);
  }

  if (tally.imports === 0) {
    ctx.out.info(tally.summary('none-valid'));
    return ExitCode.Usage;
  }
  if (flags.wait) {
    ctx.out.info(tally.summary('waited'));
    return tally.invalid + tally.failed > 0 ? ExitCode.Partial : ExitCode.Ok;
  }
  ctx.out.info(`${tally.summary('sent')} ${followHint(sentIds)}`);
  return tally.invalid > 0 ? ExitCode.Partial : ExitCode.Ok;
}

/** Opens the file and maps its header; an unusable file or mapping throws (exit 2). */
async function openMapped(source: string | NodeJS.ReadableStream, plan: Plan): Promise<{ csv: CsvFile; mapping: PatientColumnMapping }> {
  const csv = await openCsv(source, { label: plan.file });
  try {
    return { csv, mapping: mapPatientColumns(csv.headers, plan.overrides) };
  } catch (error) {
    csv.close();
    throw error;
  }
}

/**
 * Dry run: every row checked, every row's outcome on stdout. Invalid rows are
 * also listed on stderr for logs, except on a terminal table, which already
 * shows them: one table, not two.
 */
async function checkRows(ctx: Context, plan: Plan, tally: ImportTally, problemsOnly: boolean): Promise<void> {
  const { csv, mapping } = await openMapped(plan.file, plan);
  describeMapping(ctx, mapping);
  if (problemsOnly) {
    const style = await ctx.out.style();
    try {
      for await (const chunk of chunksOf(csv.rows, mapping, plan.rowOptions)) {
        count(tally, chunk);
        if (chunk.invalid.length) await ctx.out.write(await problemText(chunk.invalid, ctx.out.terminalWidth, style));
      }
    } finally {
      csv.close();
    }
    return;
  }
  const report =
    ctx.out.mode === 'table'
      ? async () => {}
      : await invalidRowReporter(ctx, (text) => void ctx.io.stderr.write(terminalSafe(text, { keepLines: true })));
  async function* outcomes(): AsyncGenerator<RowOutcome> {
    for await (const chunk of chunksOf(csv.rows, mapping, plan.rowOptions)) {
      count(tally, chunk);
      await report(chunk);
      const valid: RowOutcome[] = chunk.valid.map(({ row, ...patient }) => ({
        row, outcome: 'valid', patient_id: null, matched_by: null, errors: [], import_id: null, patient,
      }));
      yield* mergeByRow(chunk.invalid, valid);
    }
  }
  try {
    await ctx.out.list(outcomes(), dryRunColumns, { pager: false });
  } finally {
    csv.close();
  }
}

/**
 * First pass before an upload: the whole file parsed (so a file that breaks
 * halfway is refused before anything is sent), counted and hashed. Fields
 * are checked in the second pass, once.
 */
async function scanFile(ctx: Context, plan: Plan): Promise<{ sha256: string; dataRows: number }> {
  const hashed = hashedFile(plan.file);
  const { csv, mapping } = await openMapped(hashed.stream, plan);
  describeMapping(ctx, mapping);
  let dataRows = 0;
  // Birth dates both orders read differently, with no order given: never guessed, and the
  // file shares one way of writing dates, so nothing is sent until it is stated.
  const dobColumn = plan.rowOptions.dateOrder === undefined ? mapping.columns.date_of_birth : undefined;
  const ambiguous: number[] = [];
  try {
    for await (const row of csv.rows) {
      dataRows += 1;
      if (dobColumn !== undefined && isAmbiguousDate(row.record[dobColumn] ?? '')) ambiguous.push(row.row);
    }
  } finally {
    csv.close();
  }
  if (ambiguous.length > 0) {
    const rows = ambiguous.slice(0, 5).join(', ') + (ambiguous.length > 5 ? ', …' : '');
    throw new UsageError(
      `${plan.file}: ${plural(ambiguous.length, 'row')} ${ambiguous.length === 1 ? 'has' : 'have'} a date in column "${dobColumn}" whose day and month could be either way round (row ${rows}); nothing was sent.`,
      [...DATE_ORDER_HINTS],
    );
  }
  return { sha256: hashed.sha256(), dataRows };
}

function count(tally: ImportTally, chunk: Chunk<ValidRows>): void {
  tally.dataRows += chunk.valid.length + chunk.invalid.length;
  tally.valid += chunk.valid.length;
  tally.invalid += chunk.invalid.length;
}

/** Writes a chunk's invalid rows to stderr (through `write`, so a progress bar can step aside). */
async function invalidRowReporter(ctx: Context, write: (text: string) => void): Promise<(chunk: Chunk<ValidRows>) => Promise<void>> {
  const style = await ctx.out.style();
  return async (chunk) => {
    if (chunk.invalid.length === 0) return;
    write(await formatInvalidRows(chunk.invalid, Boolean(ctx.io.stderr.isTTY), style, ctx.out.terminalWidth));
  };
}

function describeMapping(ctx: Context, mapping: PatientColumnMapping): void {
  const used = Object.entries(mapping.columns).map(([field, header]) => `"${header}" → ${field}`);
  ctx.out.info(`Columns: ${used.join(', ')}${mapping.ignored.length ? `; ignored: ${mapping.ignored.map((h) => `"${h}"`).join(', ')}` : ''}`);
  for (const note of mapping.notes) ctx.out.info(`note: ${note}`);
}

/** Second pass: reads chunks again and sends each one's valid rows as an import. */
async function* sentChunks(
  ctx: Context,
  client: ApiClient,
  plan: Plan,
  namespace: () => Promise<string>,
  tally: ImportTally,
  writeStderr: (text: string) => void,
): AsyncGenerator<{ chunk: Chunk<ValidRows>; created: PatientImport | null; mapping: PatientColumnMapping }> {
  const { csv, mapping } = await openMapped(plan.file, plan);
  const report = await invalidRowReporter(ctx, writeStderr);
  try {
    const memory = new BodyBytes();
    for await (const chunk of chunksOf(csv.rows, mapping, plan.rowOptions, () => new ImportBody(memory))) {
      count(tally, chunk);
      await report(chunk);
      if (chunk.valid.length === 0) {
        yield { chunk, created: null, mapping };
        continue;
      }
      const { bytes, rowsDigest } = chunk.valid.finish();
      const key = chunkKeyOf(await namespace(), chunk.firstRow, chunk.lastRow, rowsDigest);
      const response = await client.request('POST', '/patient-imports', {
        jsonBytes: bytes,
        idempotencyKey: key,
        signal: ctx.signal,
        shape: IMPORT,
        mayHaveTakenEffect: 'These rows may have been imported all the same: the same command again sends them with the same Idempotency-Key, so they are not imported twice.',
      });
      tally.imports += 1;
      if (response.headers['idempotent-replayed'] === 'true') {
        tally.replayed += 1;
        ctx.out.info(`rows ${chunk.firstRow}–${chunk.lastRow} were already sent by an earlier run as ${cell(response.data.id)}; not sending them again`);
      }
      yield { chunk, created: response.data, mapping };
    }
  } finally {
    csv.close();
  }
}

/** Without --wait: the import objects, as the service answered them; their ids collected in `ids`. */
async function* upload(
  ctx: Context,
  client: ApiClient,
  plan: Plan,
  namespace: () => Promise<string>,
  tally: ImportTally,
  ids: string[],
): AsyncGenerator<PatientImport> {
  const stderr = (text: string) => void ctx.io.stderr.write(terminalSafe(text, { keepLines: true }));
  for await (const { created } of sentChunks(ctx, client, plan, namespace, tally, stderr)) {
    if (!created) continue;
    ids.push(created.id);
    yield created;
  }
}

/** The command that follows what was just sent, with the real id, ready to paste. */
function followHint(ids: readonly string[]): string {
  // Escaped once (terminalSafe leaves no tab or newline for cell() to fold), then quoted for the shell.
  const first = shellWord(terminalSafe(ids[0] ?? '<id>'));
  if (ids.length <= 1) return `Follow with: msgctl imports get ${first} --wait`;
  return `Follow each with: msgctl imports get ${first} --wait (and the same for the other ${ids.length - 1} ids listed)`;
}

/** With --wait: each import followed to its end, then every row of its chunk printed, in row order. */
async function uploadAndFollow(
  ctx: Context,
  client: ApiClient,
  plan: Plan,
  namespace: () => Promise<string>,
  tally: ImportTally,
  dataRows: number,
  problemsOnly: boolean,
  ids: string[],
): Promise<void> {
  // The bar counts rows whose fate is known: refused locally, or processed by the service.
  const progress = await ctx.out.progress({ label: 'importing', total: dataRows, unit: 'rows' });
  let processedBefore = 0;
  // On a terminal the invalid rows are among the problem rows on stdout: not listed twice.
  const stderr = (text: string) => (problemsOnly ? undefined : progress.log(text));
  const style = await ctx.out.style();
  try {
    for await (const { chunk, created, mapping } of sentChunks(ctx, client, plan, namespace, tally, stderr)) {
      processedBefore += chunk.invalid.length;
      progress.update(processedBefore);
      let outcomes: Iterable<RowOutcome> = chunk.invalid;
      if (created) {
        ids.push(created.id);
        const { current: finished, results } = await waitForImportResults(client, created.id, {
          signal: ctx.signal,
          onUpdate: (current) => progress.update(processedBefore + processedRows(current)),
        });
        processedBefore += finished.rows;
        progress.update(processedBefore);
        tally.addService(finished);
        if (results) outcomes = inRowOrder(chunk.invalid, results, (outcome) => serviceOutcome(outcome, finished.id, mapping.columns));
        note(ctx, progress, chunkLine(chunk, finished));
      }
      if (problemsOnly) {
        const problems = [...outcomes].filter(isProblem);
        if (problems.length) await progress.pause(async () => ctx.out.write(await problemText(problems, ctx.out.terminalWidth, style)));
      } else await progress.pause(() => ctx.out.list(outcomes, outcomeColumns, { pager: false }));
    }
  } finally {
    progress.stop();
  }
}

function chunkLine(chunk: Chunk<ValidRows>, finished: PatientImport): string {
  const state = finished.status === 'completed' ? '' : ` [${finished.status}]`;
  return `${finished.id} (rows ${chunk.firstRow}–${chunk.lastRow}): ${finished.created} created, ${finished.matched} matched, ${finished.failed} failed${state}`;
}

function note(ctx: Context, progress: Progress, line: string): void {
  if (!ctx.opts.quiet) progress.log(line + '\n');
}
