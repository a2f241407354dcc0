/**
 * Row outcomes as `imports create` reports them: the service's
 * ImportRowOutcome (created, matched, failed) with the import it came from,
 * plus rows refused locally before upload (invalid) and, in a dry run, rows
 * that would be sent (valid). Every outcome carries the spreadsheet row.
 */
import type { ImportRowOutcome, PatientImport } from '../../contract/api.js';
import type { Column, Style } from '../output/output.js';
import type { PatientInput } from '../csv/patient-rows.js';
import { terminalSafe } from '../output/terminal-text.js';

/** A field error of a row; `column` is the CSV header as written (null for the row as a whole). */
export interface RowError {
  path: string;
  code: string;
  message: string;
  column?: string | null;
}

export interface RowOutcome {
  row: number;
  outcome: ImportRowOutcome['outcome'] | 'invalid' | 'valid';
  patient_id: string | null;
  matched_by: ImportRowOutcome['matched_by'];
  errors: RowError[];
  /** The import that processed the row; null when it was never sent. */
  import_id: string | null;
  /** Dry run only: what would be sent for a valid row. */
  patient?: PatientInput;
}

export type LocalOutcome = RowOutcome & { outcome: 'invalid' | 'valid'; import_id: null };

/** The service's outcome of a row, with each error's path (`/phone`) traced back to the CSV column. */
export function serviceOutcome(
  outcome: ImportRowOutcome,
  importId: string,
  columns: Readonly<Partial<Record<string, string>>> = {},
): RowOutcome {
  const errors = outcome.errors.map((e) => ({ ...e, column: columns[e.path.replace(/^\//, '')] ?? null }));
  return { ...outcome, errors, import_id: importId };
}

/** Local and service outcomes of one chunk, in row order. */
export function mergeByRow(local: readonly RowOutcome[], service: readonly RowOutcome[]): RowOutcome[] {
  return [...local, ...service].sort((a, b) => a.row - b.row);
}

export function errorText(e: RowError): string {
  const where = e.column ?? (e.path ? e.path.replace(/^\//, '') : '');
  return where ? `${where}: ${e.message}` : e.message;
}

export const outcomeColumns: Column<RowOutcome>[] = [
  { header: 'row', value: (o) => o.row },
  { header: 'outcome', value: (o) => o.outcome },
  { header: 'patient_id', value: (o) => o.patient_id },
  { header: 'matched_by', value: (o) => o.matched_by },
  { header: 'errors', value: (o) => o.errors.map(errorText).join('; '), flex: true },
  { header: 'import_id', value: (o) => o.import_id },
];

/**
 * A dry run's rows: nothing was sent, so no patient id, match or import; one
 * `details` column holds what would be sent (a valid row) or why not.
 */
export const dryRunColumns: Column<RowOutcome>[] = [
  { header: 'row', value: (o) => o.row },
  { header: 'outcome', value: (o) => o.outcome },
  { header: 'details', value: (o) => (o.patient ? patientText(o.patient) : o.errors.map(errorText).join('; ')), flex: true },
];

/** "Ava Marsh, born 1985-12-10, +15555550101, ava@example.com, MRN MRN-1001": the normalised fields a row would send. */
export function patientText(p: PatientInput): string {
  const parts = [`${p.first_name} ${p.last_name}`];
  if (p.date_of_birth) parts.push(`born ${p.date_of_birth}`);
  if (p.phone) parts.push(p.phone);
  if (p.email) parts.push(p.email);
  if (p.mrn) parts.push(`MRN ${p.mrn}`);
  return parts.join(', ');
}

export const importColumns: Column<PatientImport>[] = [
  { header: 'id', value: (i) => i.id, id: true },
  { header: 'status', value: (i) => i.status },
  { header: 'rows', value: (i) => i.rows },
  { header: 'created', value: (i) => i.created },
  { header: 'matched', value: (i) => i.matched },
  { header: 'failed', value: (i) => i.failed },
  { header: 'created_at', value: (i) => i.created_at, time: true, label: 'started', drop: 1 },
];

/** Running totals of one `imports create` run for its final report (rows checked, created, matched…). */
export class ImportTally {
  dataRows = 0;
  valid = 0;
  invalid = 0;
  created = 0;
  matched = 0;
  failed = 0;
  imports = 0;
  replayed = 0;

  /** Rows whose fate is known: refused locally or processed by the service. */
  get done(): number {
    return this.invalid + this.created + this.matched + this.failed;
  }

  addService(result: Pick<PatientImport, 'created' | 'matched' | 'failed'>): void {
    this.created += result.created;
    this.matched += result.matched;
    this.failed += result.failed;
  }

  /** One line, e.g. "13 rows: 8 valid, 5 invalid; 7 created, 1 matched, 0 failed (1 import)". */
  summary(mode: 'dry-run' | 'none-valid' | 'sent' | 'waited'): string {
    const head = `${plural(this.dataRows, 'row')}: ${this.valid} valid, ${this.invalid} invalid`;
    if (mode === 'dry-run') return `${head}. Dry run: nothing was sent.`;
    if (mode === 'none-valid') return `${head}. No valid rows: nothing was sent.`;
    const imports = `${plural(this.imports, 'import')}${this.replayed ? `, ${this.replayed} replayed from an earlier run` : ''}`;
    if (mode === 'sent') return `${head}; ${this.valid} sent in ${imports}.`;
    return `${head}; ${this.created} created, ${this.matched} matched, ${this.failed} failed (${imports}).`;
  }
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Invalid rows for stderr: readable problem lines on a terminal
 * (problemText), else one line per error ("row 7, DOB: not a real calendar
 * date") that grep and cron mail handle.
 */
export async function formatInvalidRows(rows: readonly RowOutcome[], tty: boolean, style: Style, width: number): Promise<string> {
  if (!tty) {
    const lines: string[] = [];
    for (const o of rows) for (const e of o.errors) lines.push(`row ${o.row}, ${errorText(e)}`);
    return lines.map((l) => `invalid ${l}\n`).join('');
  }
  return problemText(rows, width, style);
}

/** Rows that need a person's attention (refused locally or failed in the service). */
export function isProblem(o: RowOutcome): boolean {
  return o.outcome === 'invalid' || o.outcome === 'failed';
}

/**
 * Problem rows for a person at a terminal: the row, its outcome, then every
 * reason whole, wrapped to the terminal's width (never cut with …):
 *
 *   row 7     invalid  DOB: not a real calendar date
 *                      phone: "555" is not a phone number
 */
export async function problemText(rows: readonly RowOutcome[], width: number, style: Style): Promise<string> {
  const { wrapWidth } = await import('../output/text-width.js');
  let out = '';
  for (const o of rows) {
    const head = `row ${o.row}`.padEnd(10) + o.outcome.padEnd(9);
    const reasons = o.errors.length ? o.errors.map((e) => terminalSafe(errorText(e))) : [''];
    const room = width - head.length - 1;
    if (room >= 20) {
      const lines = reasons.flatMap((r) => wrapWidth(r, room));
      out += style.red(head) + lines.join(`\n${' '.repeat(head.length)}`) + '\n';
    } else {
      out += style.red(head.trimEnd()) + '\n' + reasons.flatMap((r) => wrapWidth(r, Math.max(8, width - 3))).map((l) => `  ${l}`).join('\n') + '\n';
    }
  }
  return out;
}
