import { describe, expect, it } from 'vitest';
import { mapPatientColumns, parseColumnOverrides, recognisedField } from '../../src/cli/csv/patient-columns.js';
import { UsageError } from '../../src/cli/errors.js';

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('mapPatientColumns: recognised headers', () => {
  it.each([
    ...['First Name', 'first_name', 'FIRSTNAME', 'first-name', 'firstName', 'Given Name', 'fname', 'Forename'].map(
      (h) => [h, 'first_name'],
    ),
    ...['Last Name', 'last_name', 'LASTNAME', 'Surname', 'Family Name', 'lname'].map((h) => [h, 'last_name']),
    ...['DOB', 'Date of Birth', 'date_of_birth', 'Birth Date', 'Birthdate', 'D.O.B.'].map((h) => [h, 'date_of_birth']),
    ...['Mobile', 'Mobile Phone', 'Cell', 'Cell Phone', 'Phone', 'Phone Number', 'Phone #', 'Telephone'].map((h) => [
      h,
      'phone',
    ]),
    ...['MRN', 'Medical Record Number', 'Patient ID', 'Chart Number', 'Chart #', 'mrn'].map((h) => [h, 'mrn']),
  ])('%j → %s', (header, field) => {
    expect(recognisedField(header)).toBe(field);
  });

  it.each(['Email', 'E-mail', 'Email Address', 'EMAIL_ADDRESS'])('%j → email', (header) => {
    expect(recognisedField(header)).toBe('email');
  });

  it.each(['Home Phone', 'Work Phone', 'Notes', 'Name', 'Last Visit'])('does not guess %j', (header) => {
    expect(recognisedField(header)).toBeUndefined();
  });

  it('maps a typical roster and lists the rest as ignored, in file order', () => {
    const mapping = mapPatientColumns(['Notes', 'First Name', 'Last Name', 'DOB', 'Mobile Phone', 'Email', 'MRN', 'Insurer']);
    expect(mapping).toEqual({
      columns: {
        first_name: 'First Name',
        last_name: 'Last Name',
        date_of_birth: 'DOB',
        phone: 'Mobile Phone',
        email: 'Email',
        mrn: 'MRN',
      },
      ignored: ['Notes', 'Insurer'],
      notes: [],
    });
  });

  it('prefers a mobile column over a generic phone column and says so', () => {
    const mapping = mapPatientColumns(['Phone', 'First Name', 'Last Name', 'Cell']);
    expect(mapping.columns.phone).toBe('Cell');
    expect(mapping.ignored).toEqual(['Phone']);
    expect(mapping.notes).toEqual(['"Phone" is not used: "Cell" is used for phone (change with --map "Phone=phone")']);
  });

  it('takes the first of two equally good columns', () => {
    const mapping = mapPatientColumns(['First Name', 'Last Name', 'Email', 'E-mail']);
    expect(mapping.columns.email).toBe('Email');
    expect(mapping.ignored).toEqual(['E-mail']);
  });
});

describe('mapPatientColumns: requirements', () => {
  it('accepts email without phone, and phone without email', () => {
    expect(mapPatientColumns(['First Name', 'Last Name', 'Email']).columns.phone).toBeUndefined();
    expect(mapPatientColumns(['First Name', 'Last Name', 'Cell']).columns.email).toBeUndefined();
  });

  it('names what is missing and what was seen', () => {
    const error = usageError(() => mapPatientColumns(['First Name', 'DOB', 'Mobile Phone']));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('the CSV has no last name column');
    expect(error.hints[0]).toBe('Columns in the file: "First Name", "DOB", "Mobile Phone".');
    expect(error.hints[1]).toContain('--map');
  });

  it('lists every missing requirement at once', () => {
    const error = usageError(() => mapPatientColumns(['Name', 'DOB']));
    expect(error.message).toBe(
      'the CSV has no first name column and no last name column and no phone or email column',
    );
  });
});

describe('overrides', () => {
  it('parse "Column Name=field", splitting at the last "="', () => {
    expect(parseColumnOverrides(['Cell Phone=phone', 'a=b = mrn', ' Notes = IGNORE '])).toEqual([
      { column: 'Cell Phone', field: 'phone' },
      { column: 'a=b', field: 'mrn' },
      { column: 'Notes', field: 'ignore' },
    ]);
  });

  it.each(['Cell Phone', '=phone', 'Cell Phone='])('reject the malformed %j', (spec) => {
    expect(usageError(() => parseColumnOverrides([spec])).message).toContain('expected COLUMN=FIELD');
  });

  it('reject an unknown field and list the known ones', () => {
    const error = usageError(() => parseColumnOverrides(['Cell=mobile']));
    expect(error.message).toBe('--map "Cell=mobile": unknown field "mobile"');
    expect(error.hints[0]).toContain('first_name, last_name, date_of_birth, phone, email, mrn');
  });

  it('reject a column the file does not have, naming it and the real ones', () => {
    const error = usageError(() => mapPatientColumns(['First Name', 'Last Name', 'Email'], ['Cell=phone']));
    expect(error.message).toBe('--map: the file has no column "Cell"');
    expect(error.hints[0]).toBe('Columns in the file: "First Name", "Last Name", "Email".');
  });

  it('find a column by its normalised name when that is unambiguous', () => {
    const mapping = mapPatientColumns(['First Name', 'Last Name', 'Home Phone'], ['home_phone=phone']);
    expect(mapping.columns.phone).toBe('Home Phone');
  });

  it('win over recognised names, and the displaced column is ignored silently', () => {
    const mapping = mapPatientColumns(['First Name', 'Last Name', 'Mobile', 'Home Phone'], ['Home Phone=phone']);
    expect(mapping.columns.phone).toBe('Home Phone');
    expect(mapping.ignored).toEqual(['Mobile']);
    expect(mapping.notes).toEqual(['"Mobile" is not used: "Home Phone" is used for phone (change with --map "Mobile=phone")']);
  });

  it('can drop a recognised column with "ignore"', () => {
    const mapping = mapPatientColumns(['First Name', 'Last Name', 'Email', 'Patient ID'], ['Patient ID=ignore']);
    expect(mapping.columns.mrn).toBeUndefined();
    expect(mapping.ignored).toEqual(['Patient ID']);
    expect(mapping.notes).toEqual([]);
  });

  it('can supply a required column the names did not', () => {
    const mapping = mapPatientColumns(['Given', 'Sn', 'Email'], ['Sn=last_name']);
    expect(mapping.columns).toEqual({ first_name: 'Given', last_name: 'Sn', email: 'Email' });
  });

  it('refuse two columns for one field', () => {
    const error = usageError(() => mapPatientColumns(['First Name', 'Last Name', 'A', 'B'], ['A=phone', 'B=phone']));
    expect(error.message).toBe('--map: both "A" and "B" are mapped to phone');
  });
});
