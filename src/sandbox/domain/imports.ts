/**
 * Patient imports (api-spec §2.7, §4.7; the sandbox's design is in
 * docs/imports.md): a batch of patient rows accepted at once and turned into
 * patients in the background, each row with the create-or-match rule of
 * POST /patients. Rows are processed in the order they were submitted, so a
 * second row with the MRN (or phone, or email) of an earlier one matches the
 * patient the earlier row created.
 *
 * Lifecycle: `running` from creation until every row has an outcome, then
 * `completed`. `failed` means the import as a whole stopped (the sandbox
 * could not go on); rows it never reached are reported failed with the code
 * `not_processed`, so `results` always holds one outcome per submitted row.
 */
import { randomBytes } from 'node:crypto';
import type { FieldError, ImportRowOutcome, ImportStatus, PatientImport } from '../../contract/api.js';
import { LIMITS } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { SandboxStore } from '../store/store.js';
import { FieldErrors } from '../problem.js';
import { createOrMatchPatient, validatePatientFields } from './patients.js';

/** Most rows one import accepts; the CLI splits larger files (docs/imports.md). */
export const MAX_IMPORT_ROWS = LIMITS.importMaxRows;

/** Event emitted when an import is created; the import runner picks it up. */
export const IMPORT_CREATED = 'patient_import.created';

export interface ImportRowInput {
  /** The row number the client reports (a CSV's spreadsheet row); defaults to the position, 1-based. */
  row: number;
  /** The row's patient fields as sent, validated when the row is processed. */
  fields: Record<string, unknown>;
}

export interface ImportRecord {
  id: string;
  orgId: string;
  status: ImportStatus;
  created_at: string;
  rows: number;
  created: number;
  matched: number;
  failed: number;
  /** Rows not yet processed, in order; emptied when the import finishes. */
  pending: ImportRowInput[];
  /** Outcomes so far, in submission order; served once the import finishes. */
  results: ImportRowOutcome[];
}

export function importTable(store: SandboxStore) {
  return store.table<ImportRecord>('patient_imports');
}

export function importView(record: ImportRecord): PatientImport {
  return {
    id: record.id,
    status: record.status,
    rows: record.rows,
    created: record.created,
    matched: record.matched,
    failed: record.failed,
    results: record.status === 'running' ? null : record.results,
    created_at: record.created_at,
  };
}

/** Checks the shape of a create body; per-row patient fields are checked later, row by row. */
export function parseImportBody(body: unknown): ImportRowInput[] {
  const errors = new FieldErrors();
  const raw = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).rows : undefined;
  if (!Array.isArray(raw)) {
    errors.add('/rows', 'required', 'rows must be an array of patient rows.');
    errors.throwIfAny();
  }
  const list = raw as unknown[];
  if (list.length === 0) errors.add('/rows', 'too_short', 'rows must contain at least one row.');
  if (list.length > MAX_IMPORT_ROWS) {
    errors.add('/rows', 'too_long', `An import takes at most ${MAX_IMPORT_ROWS} rows; split the file into several imports.`);
  }
  errors.throwIfAny();

  const rows: ImportRowInput[] = [];
  list.forEach((item, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      errors.add(`/rows/${index}`, 'invalid_type', 'Each row must be an object of patient fields.');
      return;
    }
    const { row, ...fields } = item as Record<string, unknown>;
    if (row !== undefined && !(Number.isSafeInteger(row) && (row as number) >= 1)) {
      errors.add(`/rows/${index}/row`, 'invalid', 'row must be a whole number ≥ 1.');
      return;
    }
    rows.push({ row: (row as number | undefined) ?? index + 1, fields });
  });
  // One problem list per request is plenty; a file with thousands of bad rows would bury the first.
  if (errors.items.length > 100) errors.items.splice(100);
  errors.throwIfAny();
  return rows;
}

export function newImportId(): string {
  return `imp_${randomBytes(12).toString('hex')}`;
}

export function createImport(sb: SandboxContext, orgId: string, rows: ImportRowInput[]): ImportRecord {
  const record = importTable(sb.store).insert({
    id: newImportId(),
    orgId,
    status: 'running',
    created_at: sb.clock.iso(),
    rows: rows.length,
    created: 0,
    matched: 0,
    failed: 0,
    pending: rows,
    results: [],
  });
  sb.store.changed();
  sb.events.emit(IMPORT_CREATED, record.id);
  return record;
}

/** The import if it exists and belongs to the organization. */
export function findImport(sb: SandboxContext, orgId: string, id: string): ImportRecord | undefined {
  const record = importTable(sb.store).get(id);
  return record && record.orgId === orgId ? record : undefined;
}

/** Turns one row into a patient (created or matched) or a failure with field errors. */
export function processRow(sb: SandboxContext, orgId: string, input: ImportRowInput): ImportRowOutcome {
  const { fields, errors } = validatePatientFields(input.fields, 'create');
  if (errors.length > 0) return failedRow(input.row, errors);
  const { patient, matchedBy, created } = createOrMatchPatient(sb, orgId, fields);
  return {
    row: input.row,
    outcome: created ? 'created' : 'matched',
    patient_id: patient.id,
    matched_by: created ? null : matchedBy,
    errors: [],
  };
}

function failedRow(row: number, errors: FieldError[]): ImportRowOutcome {
  return { row, outcome: 'failed', patient_id: null, matched_by: null, errors };
}

/**
 * Processes up to `max` pending rows of a running import, stopping early once
 * `budgetMs` of real time is spent so other requests are not kept waiting
 * (at least one row always goes through).
 * Returns true once the import has finished. A row that throws fails alone;
 * the rest go on.
 */
export function advanceImport(sb: SandboxContext, record: ImportRecord, max: number, budgetMs = Infinity): boolean {
  if (record.status !== 'running') return true;
  const started = performance.now();
  const withinBudget = (done: number) => done === 0 || performance.now() - started < budgetMs;
  for (let done = 0; done < max && record.pending.length > 0 && withinBudget(done); done++) {
    const input = record.pending.shift()!;
    let outcome: ImportRowOutcome;
    try {
      outcome = processRow(sb, record.orgId, input);
    } catch (err) {
      sb.options.log?.(`import ${record.id} row ${input.row} failed: ${(err as Error).stack}`);
      outcome = failedRow(input.row, [{ path: '', code: 'internal_error', message: 'The service could not process this row.' }]);
    }
    record.results.push(outcome);
    record[outcome.outcome] += 1;
  }
  if (record.pending.length === 0) record.status = 'completed';
  sb.store.changed();
  return record.status !== 'running';
}

/** Stops an import that cannot go on: every row not reached is reported failed. */
export function failImport(sb: SandboxContext, record: ImportRecord): void {
  for (const input of record.pending.splice(0)) {
    record.results.push(
      failedRow(input.row, [{ path: '', code: 'not_processed', message: 'The import stopped before this row was processed.' }]),
    );
    record.failed += 1;
  }
  record.status = 'failed';
  sb.store.changed();
}
