import { describe, expect, it } from 'vitest';
import { mapPatientColumns } from '../../src/cli/csv/patient-columns.js';
import { validatePatientRow } from '../../src/cli/csv/patient-rows.js';

const today = new Date(2025, 5, 15);
const mapping = mapPatientColumns(['First Name', 'Last Name', 'DOB', 'Mobile Phone', 'E-mail', 'MRN', 'Notes']);

function row(values: Partial<Record<string, string>>): Record<string, string> {
  const base: Record<string, string> = {
    'First Name': 'Ada',
    'Last Name': 'Lovelace',
    DOB: '',
    'Mobile Phone': '',
    'E-mail': '',
    MRN: '',
    Notes: 'anything',
  };
  for (const [key, value] of Object.entries(values)) if (value !== undefined) base[key] = value;
  return base;
}

describe('validatePatientRow', () => {
  it('normalises every field of a good row', () => {
    const result = validatePatientRow(
      row({ 'First Name': '  Ada ', DOB: '12/10/1815', 'Mobile Phone': '(555) 555-0123', 'E-mail': ' ada@example.com ', MRN: ' A-001 ' }),
      mapping,
      { today, dateOrder: 'month-first' },
    );
    expect(result).toEqual({
      ok: true,
      patient: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        date_of_birth: '1815-12-10',
        phone: '+15555550123',
        email: 'ada@example.com',
        mrn: 'A-001',
      },
    });
  });

  it('leaves out optional fields that are empty', () => {
    expect(validatePatientRow(row({ 'E-mail': 'ada@example.com' }), mapping)).toEqual({
      ok: true,
      patient: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    });
  });

  it('accepts a phone without an email and vice versa', () => {
    expect(validatePatientRow(row({ 'Mobile Phone': '555.555.0123' }), mapping).ok).toBe(true);
    expect(validatePatientRow(row({ 'E-mail': 'a@b.co' }), mapping).ok).toBe(true);
  });

  it('collects every error of a row, each naming the column as written', () => {
    const result = validatePatientRow(
      row({ 'First Name': ' ', 'Last Name': '', DOB: '02/30/1980', 'Mobile Phone': 'call me', 'E-mail': 'ada@' }),
      mapping,
      { today },
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        { column: 'First Name', field: 'first_name', reason: 'first name is empty' },
        { column: 'Last Name', field: 'last_name', reason: 'last name is empty' },
        { column: 'DOB', field: 'date_of_birth', reason: 'not a real calendar date' },
        { column: 'Mobile Phone', field: 'phone', reason: 'not a usable phone number: contains letters' },
        { column: 'E-mail', field: 'email', reason: 'not an email address' },
      ],
    });
  });

  it('requires a phone or an email', () => {
    expect(validatePatientRow(row({ MRN: '7' }), mapping)).toEqual({
      ok: false,
      errors: [{ column: 'Mobile Phone', field: 'phone', reason: 'needs a phone or an email; both are empty' }],
    });
    const emailOnly = mapPatientColumns(['First Name', 'Last Name', 'Email']);
    expect(validatePatientRow({ 'First Name': 'A', 'Last Name': 'B', Email: '' }, emailOnly)).toEqual({
      ok: false,
      errors: [{ column: 'Email', field: 'email', reason: 'needs a phone or an email; both are empty' }],
    });
  });

  it('refuses birth dates in the future', () => {
    const result = validatePatientRow(row({ DOB: '2025-06-16', 'E-mail': 'a@b.co' }), mapping, { today });
    expect(result).toEqual({ ok: false, errors: [{ column: 'DOB', field: 'date_of_birth', reason: 'in the future' }] });
  });

  it('resolves two-digit birth years into the past', () => {
    const result = validatePatientRow(row({ DOB: '3/7/48', 'E-mail': 'a@b.co' }), mapping, { today, dateOrder: 'month-first' });
    expect(result.ok && result.patient.date_of_birth).toBe('1948-03-07');
  });

  it('reads an ambiguous numeric date only in a stated order', () => {
    const dayFirst = validatePatientRow(row({ DOB: '07/03/1990', 'E-mail': 'a@b.co' }), mapping, { dateOrder: 'day-first' });
    expect(dayFirst.ok && dayFirst.patient.date_of_birth).toBe('1990-03-07');
    const monthFirst = validatePatientRow(row({ DOB: '07/03/1990', 'E-mail': 'a@b.co' }), mapping, { dateOrder: 'month-first' });
    expect(monthFirst.ok && monthFirst.patient.date_of_birth).toBe('1990-07-03');
    const unstated = validatePatientRow(row({ DOB: '07/03/1990', 'E-mail': 'a@b.co' }), mapping);
    expect(unstated).toMatchObject({ ok: false, errors: [{ field: 'date_of_birth', reason: expect.stringContaining('ambiguous') }] });
  });

  it('reads local numbers in the given region', () => {
    const result = validatePatientRow(row({ 'Mobile Phone': '020 7946 0958' }), mapping, { region: 'GB' });
    expect(result.ok && result.patient.phone).toBe('+442079460958');
    expect(validatePatientRow(row({ 'Mobile Phone': '020 7946 0958' }), mapping).ok).toBe(false);
  });

  it.each(['a@b.co', 'first.last+tag@clinic.example.org'])('accepts the email %j', (email) => {
    expect(validatePatientRow(row({ 'E-mail': email }), mapping).ok).toBe(true);
  });

  it.each(['ada', 'ada@example', 'ada@example.c', 'a b@example.com', '@example.com', 'a@@example.com', 'a@example.com.'])(
    'rejects the email %j',
    (email) => {
      expect(validatePatientRow(row({ 'E-mail': email }), mapping).ok).toBe(false);
    },
  );

  it('treats a column missing from the record (a short row) as empty', () => {
    const result = validatePatientRow({ 'First Name': 'Ada', 'Last Name': 'L' }, mapping);
    expect(result.ok).toBe(false);
  });
});
