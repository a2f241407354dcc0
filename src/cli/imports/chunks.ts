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

/** One row of a POST /patient-imports body. */
export interface ImportRowBody extends PatientInput {
  /** The spreadsheet row (header = 1), echoed back in the row's outcome. */
  row: number;
}

export interface Chunk {
  /** 1-based position among the file's chunks. */
  index: number;
  /** Spreadsheet rows of the first and last data row the chunk covers. */
  firstRow: number;
  lastRow: number;
  valid: ImportRowBody[];
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

export async function* chunksOf(
  rows: AsyncIterable<CsvRow>,
  mapping: Pick<PatientColumnMapping, 'columns'>,
  options: PatientRowOptions & { size: number },
): AsyncGenerator<Chunk> {
  let chunk: Chunk | null = null;
  let count = 0;
  let index = 0;
  for await (const csvRow of rows) {
    chunk ??= { index: ++index, firstRow: csvRow.row, lastRow: csvRow.row, valid: [], invalid: [] };
    chunk.lastRow = csvRow.row;
    const checked = checkRow(csvRow, mapping, options);
    if (checked.ok) chunk.valid.push(checked.body);
    else chunk.invalid.push(checked.outcome);
    if (++count === options.size) {
      yield chunk;
      chunk = null;
      count = 0;
    }
  }
  if (chunk) yield chunk;
}
