/**
 * One CSV row → the body of a patient create (api-spec §4.7), or every reason
 * it cannot be one. Errors name the column as written in the file, so an
 * operator can find the cell; the row number comes from the reader. Reasons
 * do not repeat the cell's raw value: row reports end up in cron mail and CI
 * logs, and the cell is easy to find from row and column.
 */
import { normalizeDate, type DateOrder } from '../util/dates.js';
import { normalizePhone } from '../util/phone.js';
import type { PatientColumnMapping, PatientField } from './patient-columns.js';
import { looksLikeEmail } from '../util/email.js';

export interface PatientInput {
  first_name: string;
  last_name: string;
  date_of_birth?: string;
  phone?: string;
  email?: string;
  mrn?: string;
}

export interface RowError {
  /** The CSV header as written in the file. */
  column: string;
  field: PatientField;
  reason: string;
}

export type PatientRowResult = { ok: true; patient: PatientInput } | { ok: false; errors: RowError[] };

export interface PatientRowOptions {
  /** Region for phone numbers without a country code (default US). */
  region?: string;
  /** How numeric dates are written; without one an ambiguous date is refused (see util/dates.ts). */
  dateOrder?: DateOrder;
  /** Where dateOrder came from, for errors (util/date-order.ts resolveDateOrder). */
  dateOrderFrom?: string;
  /** "Today" for the no-future-birth-date rule; for tests. */
  today?: Date;
}

/** Deliberately loose: something@something.tld, no spaces. The service has the final word. */

export function validatePatientRow(
  record: Readonly<Record<string, string>>,
  mapping: Pick<PatientColumnMapping, 'columns'>,
  options: PatientRowOptions = {},
): PatientRowResult {
  const errors: RowError[] = [];
  const value = (field: PatientField): string => {
    const column = mapping.columns[field];
    return column === undefined ? '' : (record[column] ?? '').trim();
  };
  const fail = (field: PatientField, reason: string): void => {
    errors.push({ column: mapping.columns[field] ?? field, field, reason });
  };

  const patient: PatientInput = { first_name: value('first_name'), last_name: value('last_name') };
  if (patient.first_name === '') fail('first_name', 'first name is empty');
  if (patient.last_name === '') fail('last_name', 'last name is empty');

  const dob = value('date_of_birth');
  if (dob !== '') {
    const date = normalizeDate(dob, { notInFuture: true, order: options.dateOrder, orderFrom: options.dateOrderFrom, today: options.today });
    if (date.ok) patient.date_of_birth = date.date;
    else fail('date_of_birth', date.reason);
  }

  const phone = value('phone');
  if (phone !== '') {
    const normalized = normalizePhone(phone, options.region);
    if (normalized.ok) patient.phone = normalized.e164;
    else fail('phone', `not a usable phone number: ${normalized.reason}`);
  }

  const email = value('email');
  if (email !== '') {
    if (looksLikeEmail(email)) patient.email = email;
    else fail('email', 'not an email address');
  }

  if (phone === '' && email === '') {
    const field = mapping.columns.phone !== undefined ? 'phone' : 'email';
    fail(field, 'needs a phone or an email; both are empty');
  }

  const mrn = value('mrn');
  if (mrn !== '') patient.mrn = mrn;

  return errors.length === 0 ? { ok: true, patient } : { ok: false, errors };
}
