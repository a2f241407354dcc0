/**
 * Which CSV column feeds which patient field (api-spec §2.3 / §4.7).
 *
 * Headers are matched on their letters and digits only, case-insensitively,
 * so "First Name", "first_name", "FIRSTNAME" and "first-name" are the same.
 * Where several headers could feed one field, the earlier alias in the list
 * wins ("Mobile Phone" over "Phone": only mobiles receive texts), and the
 * others are ignored with a note. Home and work phones are deliberately not
 * recognised; `--map "Home Phone=phone"` opts in.
 */
import { UsageError } from '../errors.js';

export const PATIENT_FIELDS = ['first_name', 'last_name', 'date_of_birth', 'phone', 'email', 'mrn'] as const;
export type PatientField = (typeof PATIENT_FIELDS)[number];

/** `--map "Column=ignore"` drops a column that would otherwise be recognised. */
const IGNORE = 'ignore';

/** Normalised header aliases per field, most preferred first. */
const ALIASES: Record<PatientField, readonly string[]> = {
  first_name: ['firstname', 'first', 'fname', 'givenname', 'given', 'forename', 'patientfirstname'],
  last_name: ['lastname', 'last', 'lname', 'surname', 'familyname', 'family', 'patientlastname'],
  date_of_birth: ['dateofbirth', 'dob', 'birthdate', 'birthday', 'dateborn', 'patientdob'],
  phone: [
    'mobilephone', 'mobile', 'mobilenumber', 'mobilephonenumber', 'cellphone', 'cell', 'cellnumber',
    'cellphonenumber', 'phone', 'phonenumber', 'telephone', 'tel', 'primaryphone', 'patientphone',
  ],
  email: ['email', 'emailaddress', 'mail', 'patientemail'],
  mrn: [
    'mrn', 'medicalrecordnumber', 'medicalrecordno', 'mrnumber', 'patientid', 'patientnumber',
    'chartnumber', 'chartno', 'chart', 'recordnumber',
  ],
};

export interface ColumnOverride {
  column: string;
  field: PatientField | typeof IGNORE;
}

export interface PatientColumnMapping {
  /** Field → the header as written in the file. */
  columns: Partial<Record<PatientField, string>>;
  /** Headers that feed no field, in file order: report them as ignored. */
  ignored: string[];
  /** Why a recognisable header was not used, e.g. a second phone column. */
  notes: string[];
}

export function normaliseHeader(header: string): string {
  return header.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function quoteList(values: readonly string[]): string {
  return values.map((value) => `"${value}"`).join(', ');
}

/** Parses `--map` values of the form `Column Name=field` (the last `=` splits). */
export function parseColumnOverrides(specs: readonly string[]): ColumnOverride[] {
  return specs.map((spec) => {
    const at = spec.lastIndexOf('=');
    const column = spec.slice(0, Math.max(at, 0)).trim();
    const field = spec.slice(at + 1).trim().toLowerCase();
    if (at < 0 || column === '' || field === '') {
      throw new UsageError(`--map ${JSON.stringify(spec)}: expected COLUMN=FIELD, e.g. --map "Cell Phone=phone"`);
    }
    if (field !== IGNORE && !(PATIENT_FIELDS as readonly string[]).includes(field)) {
      throw new UsageError(`--map ${JSON.stringify(spec)}: unknown field "${field}"`, [
        `Fields: ${PATIENT_FIELDS.join(', ')}, or ${IGNORE} to skip the column.`,
      ]);
    }
    return { column, field: field as ColumnOverride['field'] };
  });
}

/** Finds the header an override names: exactly, else by normalised name if that is unambiguous. */
function findHeader(headers: readonly string[], column: string): string {
  if (headers.includes(column)) return column;
  const wanted = normaliseHeader(column);
  const matches = headers.filter((header) => normaliseHeader(header) === wanted);
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  throw new UsageError(`--map: the file has no column "${column}"`, [`Columns in the file: ${quoteList(headers)}.`]);
}

function aliasRank(header: string): { field: PatientField; rank: number } | undefined {
  const key = normaliseHeader(header);
  for (const field of PATIENT_FIELDS) {
    const rank = ALIASES[field].indexOf(key);
    if (rank >= 0) return { field, rank };
  }
  return undefined;
}

/**
 * Headers that name a patient identifier: "Patient ID", "patient_id", "id",
 * "patient_uuid". By the one rule for column roles (docs/scripting.md#column-roles)
 * a cell in such a column that is a UUID is the service's patient id; any
 * other value is the clinic's MRN (EHR exports call the MRN "Patient ID").
 */
const PATIENT_ID_HEADERS = new Set(['patientid', 'id', 'patientuuid']);

export function isPatientIdHeader(header: string): boolean {
  return PATIENT_ID_HEADERS.has(normaliseHeader(header));
}

/**
 * For each field, the header recognised for it with the most preferred alias
 * (as mapPatientColumns picks them, without --map and without requiring any).
 */
export function recognisedColumns(headers: readonly string[]): Partial<Record<PatientField, string>> {
  const best = new Map<PatientField, { header: string; rank: number }>();
  for (const header of headers) {
    const match = aliasRank(header);
    const current = match && best.get(match.field);
    if (match && (current === undefined || match.rank < current.rank)) best.set(match.field, { header, rank: match.rank });
  }
  return Object.fromEntries([...best].map(([field, { header }]) => [field, header]));
}

/** The field a header name is recognised as, if any (overrides aside). */
export function recognisedField(header: string): PatientField | undefined {
  return aliasRank(header)?.field;
}

/** A header recognised as a field that another header of the file is used for. */
export interface UnusedColumn {
  header: string;
  field: PatientField;
  used: string;
}

/**
 * The headers recognised as a field that `chosen` gives to another header (`Phone` beside
 * `phone`), in file order, but those `skip` names: what every CSV command notes (notUsedNote).
 */
export function unusedColumns(headers: readonly string[], chosen: Partial<Record<PatientField, string>>, skip: (header: string) => boolean = () => false): UnusedColumn[] {
  const unused: UnusedColumn[] = [];
  for (const header of headers) {
    const field = skip(header) ? undefined : recognisedField(header);
    const used = field && chosen[field];
    if (field && used && used !== header) unused.push({ header, field, used });
  }
  return unused;
}

/** `"Phone" is not used: "phone" is used for phone`: the note, one wording for every command. */
export function notUsedNote({ header, field, used }: UnusedColumn): string {
  return `"${header}" is not used: "${used}" is used for ${field}`;
}

/**
 * Maps a header row to patient fields. Overrides win over recognised names.
 * Throws a UsageError when the file lacks first name, last name, or both of
 * phone and email: no row of it could become a patient.
 */
export function mapPatientColumns(
  headers: readonly string[],
  overrides: readonly (ColumnOverride | string)[] = [],
): PatientColumnMapping {
  const parsed = overrides.flatMap((o) => (typeof o === 'string' ? parseColumnOverrides([o]) : [o]));
  const columns: Partial<Record<PatientField, string>> = {};
  const explicit = new Map<string, ColumnOverride['field']>();
  for (const { column, field } of parsed) {
    const header = findHeader(headers, column);
    const previous = field === IGNORE ? undefined : columns[field];
    if (previous !== undefined && previous !== header) {
      throw new UsageError(`--map: both "${previous}" and "${header}" are mapped to ${field}`);
    }
    explicit.set(header, field);
    if (field !== IGNORE) columns[field] = header;
  }

  const notes: string[] = [];
  const best = new Map<PatientField, { header: string; rank: number }>();
  for (const header of headers) {
    if (explicit.has(header)) continue;
    const match = aliasRank(header);
    if (!match || columns[match.field] !== undefined) continue;
    const current = best.get(match.field);
    if (current === undefined || match.rank < current.rank) best.set(match.field, { header, rank: match.rank });
  }
  for (const [field, { header }] of best) columns[field] = header;

  const used = new Set(Object.values(columns));
  const ignored = headers.filter((header) => !used.has(header));
  for (const unused of unusedColumns(headers, columns, (header) => explicit.has(header))) {
    notes.push(`${notUsedNote(unused)} (change with --map "${unused.header}=${unused.field}")`);
  }

  requireColumns(columns, headers);
  return { columns, ignored, notes };
}

function requireColumns(columns: Partial<Record<PatientField, string>>, headers: readonly string[]): void {
  const missing: string[] = [];
  if (!columns.first_name) missing.push('no first name column');
  if (!columns.last_name) missing.push('no last name column');
  if (!columns.phone && !columns.email) missing.push('no phone or email column');
  if (missing.length === 0) return;
  throw new UsageError(`the CSV has ${missing.join(' and ')}`, [
    `Columns in the file: ${quoteList(headers)}.`,
    'Name a column explicitly with --map "Column Name=field" (fields: first_name, last_name, date_of_birth, phone, email, mrn).',
  ]);
}
