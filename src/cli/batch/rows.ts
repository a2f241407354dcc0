/**
 * Turning a CSV row into a POST /patient-messages body, with every problem
 * the row has. Both passes of a batch use it: the first to validate the
 * whole file before anything is sent, the second to send; the same bytes
 * give the same answer, so nothing from the first pass has to be kept.
 *
 * Columns: the recipient is --to-column, else a `patient_id` column (the
 * service's patient UUIDs), else a phone column (a mobile/cell one first).
 * Optional `channel` and `from` columns override --channel and --from per
 * row; an empty cell falls back to the flag.
 */
import type { Channel, SendMessageRequest } from '../../contract/api.js';
import type { CsvRow } from '../csv/read.js';
import type { BoundTemplate } from '../send/template.js';
import { findColumn } from '../send/template.js';
import { normaliseHeader, recognisedField } from '../csv/patient-columns.js';
import { buildSendRequest } from '../send/build-request.js';
import { UsageError } from '../errors.js';

export interface BatchColumns {
  recipient: string;
  /** How the recipient column was chosen, for the summary. */
  recipientFrom: '--to-column' | 'patient_id' | 'phone';
  channel?: string;
  from?: string;
}

export interface RowDefaults {
  channel?: Channel;
  from?: string;
  region: string;
}

export type PreparedRow = { ok: true; request: SendMessageRequest } | { ok: false; problems: string[] };

export function planColumns(headers: readonly string[], toColumn: string | undefined): BatchColumns {
  const optional = (name: string) => {
    const found = findColumn(headers, name);
    return 'header' in found ? found.header : undefined;
  };
  const columns = (recipient: string, recipientFrom: BatchColumns['recipientFrom']): BatchColumns => ({
    recipient,
    recipientFrom,
    channel: optional('channel'),
    from: optional('from'),
  });
  if (toColumn !== undefined) {
    const found = findColumn(headers, toColumn);
    if ('problem' in found) {
      throw new UsageError(`--to-column "${toColumn}" ${found.problem}`, [`Columns in the file: ${quoted(headers)}.`]);
    }
    return columns(found.header, '--to-column');
  }
  const patientId = headers.find((h) => normaliseHeader(h) === 'patientid');
  if (patientId !== undefined) return columns(patientId, 'patient_id');
  const phones = headers.filter((h) => recognisedField(h) === 'phone');
  const phone = phones.find((h) => /mobile|cell/.test(normaliseHeader(h))) ?? phones[0];
  if (phone !== undefined) return columns(phone, 'phone');
  throw new UsageError('The CSV has no recipient column: no patient_id and no phone column.', [
    `Columns in the file: ${quoted(headers)}.`,
    'Name it with --to-column "Column Name" (patient ids or phone numbers).',
  ]);
}

export function prepareRow(row: CsvRow, template: BoundTemplate, columns: BatchColumns, defaults: RowDefaults): PreparedRow {
  const problems: string[] = [];
  if (row.problem) problems.push(`the row ${row.problem}`);
  const rendered = template.render(row.record);
  if (!rendered.ok) problems.push(...rendered.problems);
  const cell = (column: string | undefined) => (column === undefined ? '' : (row.record[column] ?? ''));
  const channel = cell(columns.channel).toLowerCase() || defaults.channel;
  const built = buildSendRequest({
    to: cell(columns.recipient),
    // An unrendered body is checked for length/emptiness by the template's own problems.
    body: rendered.ok ? rendered.body : 'x',
    channel: channel as Channel | undefined,
    from: cell(columns.from) || defaults.from,
    region: defaults.region,
  });
  if (!built.ok) problems.push(...built.problems);
  return problems.length || !built.ok ? { ok: false, problems } : { ok: true, request: built.request };
}

function quoted(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}
