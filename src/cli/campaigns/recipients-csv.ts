/**
 * `campaigns recipients add --csv FILE`: turns each row into a patient id.
 *
 * Columns, recognised by name (case, spaces and punctuation ignored), by the
 * one rule for column roles (docs/scripting.md#column-roles):
 * - `patient_id` / `id`: a UUID is used as is; any other value in it is
 *   taken as an MRN when the file has no MRN column (EHR exports often call
 *   the MRN "Patient ID");
 * - an MRN column (`mrn`, `medical record number`, `chart number`…), looked
 *   up with GET /patients?mrn=;
 * - a phone column (`mobile`, `cell`, `phone`…), in any common format,
 *   looked up with GET /patients?phone=.
 * A row uses the first of these that names exactly one patient. Rows that
 * name none, or a phone shared by several patients, are reported with their
 * spreadsheet row number. Rows keep file order (it is the send order) while
 * up to LOOKUP_CONCURRENCY lookups run at once.
 */
import type { ApiClient } from '../api/client.js';
import type { Patient } from '../../contract/api.js';
import { UsageError } from '../errors.js';
import { readCsvRecords, type CsvRow } from '../csv/read.js';
import { isPatientIdHeader, notUsedNote, recognisedColumns, unusedColumns } from '../csv/patient-columns.js';
import { normalizePhone } from '../util/phone.js';
import { looksLikeUuid } from '../util/ids.js';
import { PATIENT } from '../api/shapes.js';

const LOOKUP_CONCURRENCY = 8;

export type RowOutcome = { row: number; patientId: string } | { row: number; reason: string };

interface Columns {
  id?: string;
  mrn?: string;
  phone?: string;
}

/**
 * Which header feeds which identifier, by the one rule of every CSV (csv/patient-columns.ts: a
 * mobile or cell column before a plain phone); refuses (exit 2) a file with none. `notes` names
 * a second column read as the same identifier, which is not used (it took the first, silently).
 */
export function recipientColumns(headers: readonly string[]): Columns & { notes: string[] } {
  const id = headers.find(isPatientIdHeader);
  const others = headers.filter((header) => header !== id);
  const found = recognisedColumns(others);
  const columns: Columns = { id, mrn: found.mrn, phone: found.phone };
  if (!columns.id && !columns.mrn && !columns.phone) {
    throw new UsageError('the CSV has no patient_id, MRN or phone column', [
      `Columns in the file: ${headers.map((h) => `"${h}"`).join(', ')}.`,
      'Name one column "patient_id" (UUIDs), "mrn" or "phone".',
    ]);
  }
  return { ...columns, notes: unusedColumns(others, { mrn: columns.mrn, phone: columns.phone }).map(notUsedNote) };
}

/** Every row's outcome, in file order. */
export async function* resolveCsvRecipients(
  client: ApiClient,
  file: string,
  options: { region: string; signal?: AbortSignal; onNote?: (note: string) => void },
): AsyncGenerator<RowOutcome> {
  let columns: Columns = {};
  const rows = readCsvRecords(file, {
    onHeader: (headers) => {
      const chosen = recipientColumns(headers);
      columns = chosen;
      for (const note of chosen.notes) options.onNote?.(note);
    },
  });
  const inFlight: Promise<RowOutcome>[] = [];
  for await (const row of rows) {
    const outcome = resolveRow(client, row, columns, options);
    // Awaited in order below; until then a failure must not count as unhandled.
    outcome.catch(() => {});
    inFlight.push(outcome);
    if (inFlight.length >= LOOKUP_CONCURRENCY) yield await inFlight.shift()!;
  }
  while (inFlight.length) yield await inFlight.shift()!;
}

async function resolveRow(client: ApiClient, row: CsvRow, columns: Columns, options: { region: string; signal?: AbortSignal }): Promise<RowOutcome> {
  if (row.problem) return { row: row.row, reason: `the row ${row.problem}` };
  const value = (header?: string) => (header ? (row.record[header] ?? '').trim() : '');
  const idValue = value(columns.id);
  let mrn = value(columns.mrn);
  const phone = value(columns.phone);
  if (idValue && looksLikeUuid(idValue)) return { row: row.row, patientId: idValue.toLowerCase() };
  if (idValue && !columns.mrn) mrn = idValue;
  else if (idValue && !mrn && !phone) return { row: row.row, reason: `${columns.id} "${idValue}" is not a patient id (UUID)` };

  const reasons: string[] = [];
  if (mrn) {
    const found = await lookup(client, { mrn }, options.signal);
    if (found.length === 1) return { row: row.row, patientId: found[0]!.id };
    reasons.push(found.length === 0 ? `no patient with MRN ${mrn}` : `MRN ${mrn} matches ${found.length} patients`);
  }
  if (phone) {
    const e164 = normalizePhone(phone, options.region);
    if (!e164.ok) reasons.push(`phone "${phone}" ${e164.reason}`);
    else {
      const found = await lookup(client, { phone: e164.e164 }, options.signal);
      if (found.length === 1) return { row: row.row, patientId: found[0]!.id };
      reasons.push(
        found.length === 0
          ? `no patient with phone ${e164.e164}`
          : `phone ${e164.e164} is shared by ${found.length} patients; add a patient_id or mrn column to choose`,
      );
    }
  }
  if (reasons.length === 0) reasons.push('no patient id, MRN or phone in this row');
  return { row: row.row, reason: reasons.join('; ') };
}

/** At most two results: enough to tell "one" from "several". */
async function lookup(client: ApiClient, query: { mrn?: string; phone?: string }, signal?: AbortSignal): Promise<Patient[]> {
  const found: Patient[] = [];
  for await (const patient of client.paginate('/patients', query, { limit: 2, signal, shape: PATIENT })) found.push(patient);
  return found;
}
