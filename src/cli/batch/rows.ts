/**
 * Turning a CSV row into a POST /patient-messages body, with every problem
 * the row has. Both passes of a batch use it: the first to validate the
 * whole file before anything is sent, the second to send; the same bytes
 * give the same answer, so nothing from the first pass has to be kept.
 *
 * Columns follow the one rule for column roles (docs/scripting.md#column-roles):
 * the recipient is --to-column, else a `Patient ID` cell that is a UUID (the
 * service's patient id), else the phone column (a mobile/cell one first). A
 * `Patient ID` that is not a UUID is the clinic's MRN, which cannot address a
 * message: such a row goes to its phone. Optional `channel` and `from`
 * columns override --channel and --from per row; an empty cell falls back.
 * A row sent to a phone number carries the patient details its columns hold
 * (name, birth date, email, MRN, recognised as `imports create` recognises
 * them), so a patient the send creates gets them; the service ignores them
 * when the number is an existing patient's.
 */
import type { Channel, SendMessageRequest } from '../../contract/api.js';
import type { DateOrder } from '../util/dates.js';
import type { CsvRow } from '../csv/read.js';
import type { BoundTemplate } from '../send/template.js';
import { findColumn } from '../send/template.js';
import { shellWord } from '../util/shell-word.js';
import { isPatientIdHeader, notUsedNote, recognisedColumns, recognisedField, unusedColumns, type PatientField } from '../csv/patient-columns.js';
import { looksLikeUuid } from '../util/ids.js';
import { AMBIGUOUS_DATE } from '../util/dates.js';
import { buildSendRequest } from '../send/build-request.js';
import { UsageError } from '../errors.js';

export interface BatchColumns {
  recipient: string;
  /** How the recipient column was chosen, for the summary. */
  recipientFrom: '--to-column' | 'patient_id' | 'phone';
  /** With a `Patient ID` recipient: the phone column for rows whose Patient ID is an MRN, not a UUID. */
  phone?: string;
  channel?: string;
  from?: string;
  /** Columns holding details for a patient the send creates (see the file's comment). */
  patient: PatientDetailColumns;
  /** Columns read as a detail another column of the file is used for, said as `imports create` says them. */
  notes: string[];
}

export interface PatientDetailColumns {
  firstName?: string;
  lastName?: string;
  dob?: string;
  email?: string;
  mrn?: string;
}

export interface RowDefaults {
  channel?: Channel;
  from?: string;
  region: string;
  /** How numeric birth dates are read; without one, an ambiguous date stops the batch (run-batch-send.ts). */
  dateOrder?: DateOrder;
  /** Where dateOrder came from, for errors (util/date-order.ts resolveDateOrder). */
  dateOrderFrom?: string;
}

export type PreparedRow =
  | { ok: true; request: SendMessageRequest }
  /**
   * badRecipient: the recipient cell was empty or neither a patient id nor a phone number.
   * ambiguousDate: the birth date could be read day- or month-first and no order was given.
   */
  | { ok: false; problems: string[]; badRecipient?: boolean; ambiguousDate?: boolean };

export function planColumns(headers: readonly string[], toColumn: string | undefined): BatchColumns {
  const optional = (name: string) => {
    const found = findColumn(headers, name);
    return 'header' in found ? found.header : undefined;
  };
  const recognised = recognisedColumns(headers);
  const phone = phoneColumn(headers);
  const columns = (recipient: string, recipientFrom: BatchColumns['recipientFrom']): BatchColumns => ({
    recipient,
    recipientFrom,
    channel: optional('channel'),
    from: optional('from'),
    patient: { firstName: recognised.first_name, lastName: recognised.last_name, dob: recognised.date_of_birth, email: recognised.email, mrn: recognised.mrn },
    notes: recipientFrom === '--to-column' ? [] : unusedColumnNotes(headers, { ...recognised, phone }),
  });
  if (toColumn !== undefined) {
    const found = findColumn(headers, toColumn);
    if ('problem' in found) {
      throw new UsageError(`--to-column "${toColumn}" ${found.problem}`, [`Columns in the file: ${quoted(headers)}.`]);
    }
    return columns(found.header, '--to-column');
  }
  const patientId = headers.find(isPatientIdHeader);
  if (patientId !== undefined) return { ...columns(patientId, 'patient_id'), phone };
  if (phone !== undefined) return columns(phone, 'phone');
  throw new UsageError('The CSV has no recipient column: no patient_id and no phone column.', [
    `Columns in the file: ${quoted(headers)}.`,
    'Name it with --to-column "Column Name" (patient ids or phone numbers).',
  ]);
}

/**
 * A second column read as the same detail (`phone` and `Phone`, `Mobile` and `Cell`) is not used,
 * and the run says so, as `imports create` does: silently, a file with two phone columns sent to
 * whichever came first. A Patient ID column is the recipient, or an MRN with its row's phone
 * (recipientCell), not a second MRN column.
 */
function unusedColumnNotes(headers: readonly string[], chosen: Partial<Record<PatientField, string>>): string[] {
  return unusedColumns(headers, chosen, isPatientIdHeader).map(
    (unused) => notUsedNote(unused) + (unused.field === 'phone' ? ` (to send to "${unused.header}" instead: --to-column ${shellWord(unused.header)})` : ''),
  );
}

/** The phone column a message goes to: a mobile/cell one before a plain "Phone". */
export function phoneColumn(headers: readonly string[]): string | undefined {
  const phones = headers.filter((h) => recognisedField(h) === 'phone');
  return phones.find((h) => /mobile|cell/i.test(h)) ?? phones[0];
}

/** The row's recipient cell: a Patient ID that is not a UUID is an MRN, so its row goes to the phone column. */
function recipientCell(cell: (column: string | undefined) => string, columns: BatchColumns): string {
  const value = cell(columns.recipient);
  if (columns.recipientFrom !== 'patient_id' || columns.phone === undefined || looksLikeUuid(value.trim())) return value;
  return cell(columns.phone);
}

export function prepareRow(row: CsvRow, template: BoundTemplate, columns: BatchColumns, defaults: RowDefaults): PreparedRow {
  const problems: string[] = [];
  if (row.problem) problems.push(`the row ${row.problem}`);
  const rendered = template.render(row.record);
  if (!rendered.ok) problems.push(...rendered.problems);
  const cell = (column: string | undefined) => (column === undefined ? '' : (row.record[column] ?? ''));
  const channel = cell(columns.channel).toLowerCase() || defaults.channel;
  const to = recipientCell(cell, columns);
  // Details go with a phone number only; a patient id names a patient who exists.
  const details = looksLikeUuid(to.trim()) ? {} : columns.patient;
  const detail = (column: string | undefined) => cell(column).trim() || undefined;
  const built = buildSendRequest({
    to,
    // An unrendered body is checked for length/emptiness by the template's own problems.
    body: rendered.ok ? rendered.body : 'x',
    channel: channel as Channel | undefined,
    from: cell(columns.from) || defaults.from,
    region: defaults.region,
    firstName: detail(details.firstName),
    lastName: detail(details.lastName),
    dob: detail(details.dob),
    dateOrder: defaults.dateOrder,
    dateOrderFrom: defaults.dateOrderFrom,
    email: detail(details.email),
    mrn: detail(details.mrn),
  });
  if (!built.ok) problems.push(...built.problems);
  if (problems.length || !built.ok) {
    const badRecipient = !built.ok && built.problems.some((p) => p.startsWith('recipient '));
    const ambiguousDate = !built.ok && built.problems.some((p) => p.startsWith('date of birth ') && p.includes(AMBIGUOUS_DATE));
    return { ok: false, problems, badRecipient, ambiguousDate };
  }
  return { ok: true, request: built.request };
}

function quoted(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}
