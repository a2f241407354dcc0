/**
 * CSV rows → chunks ready to upload. Each chunk covers the next `size` data
 * rows of the file: the valid ones become the rows of one import request,
 * the invalid ones are kept beside them as local outcomes. Only one chunk is
 * held at a time, so memory does not grow with the file.
 */
import type { CsvRow } from '../csv/read.js';
import type { PatientColumnMapping } from '../csv/patient-columns.js';
import { validatePatientRow, type PatientInput, type PatientRowOptions } from '../csv/patient-rows.js';
import type { LocalOutcome, RowError } from './outcomes.js';
import { MrnTable } from './mrn-table.js';

/** One row of a POST /patient-imports body. */
export interface ImportRowBody extends PatientInput {
  /** The spreadsheet row (header = 1), echoed back in the row's outcome. */
  row: number;
}

/** Where a chunk's valid rows go: an array (a dry run shows them) or an ImportBody (body.ts: an upload). */
export interface ValidRows {
  push(row: ImportRowBody): unknown;
  readonly length: number;
}

export interface Chunk<V extends ValidRows = ImportRowBody[]> {
  /** 1-based position among the file's chunks. */
  index: number;
  /** Spreadsheet rows of the first and last data row the chunk covers. */
  firstRow: number;
  lastRow: number;
  valid: V;
  invalid: LocalOutcome[];
}

/** Checks one CSV row; a row with the wrong number of values is invalid even if its fields look fine. */
export function checkRow(
  csvRow: CsvRow,
  mapping: Pick<PatientColumnMapping, 'columns'>,
  options: PatientRowOptions,
): { ok: true; body: ImportRowBody } | { ok: false; outcome: LocalOutcome } {
  const result = validatePatientRow(csvRow.record, mapping, options);
  const errors: RowError[] = [];
  if (csvRow.problem) errors.push({ path: '', code: 'column_count', column: null, message: `row ${csvRow.problem}` });
  if (!result.ok) {
    for (const e of result.errors) {
      const empty = (csvRow.record[e.column] ?? '').trim() === '';
      errors.push({ path: `/${e.field}`, code: empty ? 'required' : 'invalid', column: e.column, message: e.reason });
    }
  }
  if (result.ok && errors.length === 0) return { ok: true, body: { row: csvRow.row, ...result.patient } };
  return {
    ok: false,
    outcome: { row: csvRow.row, outcome: 'invalid', patient_id: null, matched_by: null, errors, import_id: null },
  };
}

/**
 * Rows of one file that repeat an earlier row's MRN. The service processes
 * rows in order and matches the later row to the patient the earlier one
 * created, leaving the record unchanged: a second row's different phone or
 * name would be dropped without a word. So a repeat with different details is
 * refused locally (invalid, code `duplicate`); an identical repeat loses
 * nothing and stays valid. Memory: per distinct MRN its bytes and about 30 bytes,
 * outside the JS heap (mrn-table.ts).
 */
export class DuplicateMrns {
  private readonly seen = new MrnTable();

  /** The earlier row this one conflicts with, or null. */
  check(body: ImportRowBody): number | null {
    if (!body.mrn) return null;
    const { row, ...patient } = body;
    const details = fnv1a(JSON.stringify(patient));
    const first = this.seen.firstSeen(body.mrn, row, details);
    return first === null || first.details === details ? null : first.row;
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function duplicateOutcome(body: ImportRowBody, earlier: number, column: string | undefined): LocalOutcome {
  // Short enough for a terminal table; docs/imports.md says what to do (merge the rows or fix the MRN).
  const message = `repeats row ${earlier}'s MRN with other details, which the service would drop`;
  return {
    row: body.row, outcome: 'invalid', patient_id: null, matched_by: null,
    errors: [{ path: '/mrn', code: 'duplicate', column: column ?? null, message }], import_id: null,
  };
}

export function chunksOf(
  rows: AsyncIterable<CsvRow>,
  mapping: Pick<PatientColumnMapping, 'columns'>,
  options: PatientRowOptions & { size: number },
): AsyncGenerator<Chunk>;
export function chunksOf<V extends ValidRows>(
  rows: AsyncIterable<CsvRow>,
  mapping: Pick<PatientColumnMapping, 'columns'>,
  options: PatientRowOptions & { size: number },
  validRows: () => V,
): AsyncGenerator<Chunk<V>>;
export async function* chunksOf(
  rows: AsyncIterable<CsvRow>,
  mapping: Pick<PatientColumnMapping, 'columns'>,
  options: PatientRowOptions & { size: number },
  validRows: () => ValidRows = () => [],
): AsyncGenerator<Chunk<ValidRows>> {
  let chunk: Chunk<ValidRows> | null = null;
  let count = 0;
  let index = 0;
  const duplicates = new DuplicateMrns();
  for await (const csvRow of rows) {
    chunk ??= { index: ++index, firstRow: csvRow.row, lastRow: csvRow.row, valid: validRows(), invalid: [] };
    chunk.lastRow = csvRow.row;
    const checked = checkRow(csvRow, mapping, options);
    const earlier = checked.ok ? duplicates.check(checked.body) : null;
    if (checked.ok && earlier !== null) chunk.invalid.push(duplicateOutcome(checked.body, earlier, mapping.columns.mrn));
    else if (checked.ok) chunk.valid.push(checked.body);
    else chunk.invalid.push(checked.outcome);
    if (++count === options.size) {
      yield chunk;
      chunk = null;
      count = 0;
    }
  }
  if (chunk) yield chunk;
}
