/** What the `msgctl patients` verbs share: columns, the path of a patient, and patient fields from flags. */
import type { Patient, PatientInput } from '../../../contract/api.js';
import type { Column } from '../../output/output.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

// Piped, every column in this order (scripts cut them); on a terminal the id stays whole and goes last.
export const patientColumns: Column<Patient>[] = [
  { header: 'id', value: (p) => p.id, id: true },
  { header: 'name', value: (p) => `${p.first_name} ${p.last_name}` },
  { header: 'dob', value: (p) => p.date_of_birth, drop: 2, label: 'date of birth' },
  { header: 'phone', value: (p) => p.phone, drop: 0 },
  { header: 'email', value: (p) => p.email, drop: 3 },
  { header: 'mrn', value: (p) => p.mrn, drop: 1, label: 'MRN' },
  { header: 'sms_opted_out', value: (p) => p.sms_opted_out, drop: 4, label: 'SMS opted out' },
];

export const patientFields: Column<Patient>[] = [
  ...patientColumns,
  { header: 'conversation_count', value: (p) => p.conversation_count, label: 'conversations' },
  { header: 'created_at', value: (p) => p.created_at, time: true, label: 'created' },
  { header: 'matched_by', value: (p) => p.matched_by, label: 'matched by' },
];

export interface PatientFlags {
  firstName?: string;
  lastName?: string;
  dob?: string;
  phone?: string;
  email?: string;
  mrn?: string;
  region?: string;
  dayFirst?: boolean;
  monthFirst?: boolean;
  clearDob?: boolean;
  clearPhone?: boolean;
  clearEmail?: boolean;
  clearMrn?: boolean;
}

/** Validates and normalises the flags that were given; absent flags stay absent (PATCH semantics). */
export async function patientInputFromFlags(ctx: Context, flags: PatientFlags): Promise<PatientInput> {
  const input: PatientInput = {};
  if (flags.firstName !== undefined) input.first_name = requireText(flags.firstName, '--first-name');
  if (flags.lastName !== undefined) input.last_name = requireText(flags.lastName, '--last-name');
  if (flags.dob !== undefined) {
    const [{ normalizeDate }, { resolveDateOrder, DATE_ORDER_HINTS }] = await Promise.all([import('../../util/dates.js'), import('../../util/date-order.js')]);
    const dates = resolveDateOrder(flags, await ctx.profile(), await ctx.profileName());
    const r = normalizeDate(flags.dob, { notInFuture: true, order: dates.order, orderFrom: dates.from });
    if (!r.ok) throw new UsageError(`--dob "${flags.dob}": ${r.reason}`, r.ambiguous ? [...DATE_ORDER_HINTS] : []);
    input.date_of_birth = r.date;
  } else if (flags.dayFirst && flags.monthFirst) {
    throw new UsageError('--day-first and --month-first contradict each other: give one.');
  }
  if (flags.phone !== undefined) {
    const { normalizePhone, regionHint } = await import('../../util/phone.js');
    const region = await ctx.region(flags.region);
    const r = normalizePhone(flags.phone, region);
    if (!r.ok) throw new UsageError(`--phone "${flags.phone}": ${r.reason}`, regionHint(flags.phone, region));
    input.phone = r.e164;
  }
  if (flags.email !== undefined) {
    const { looksLikeEmail } = await import('../../util/email.js');
    if (!looksLikeEmail(flags.email)) throw new UsageError(`--email "${flags.email}" is not an email address.`);
    input.email = flags.email;
  }
  if (flags.mrn !== undefined) input.mrn = requireText(flags.mrn, '--mrn');
  for (const field of ['dob', 'phone', 'email', 'mrn'] as const) {
    const clearFlag = `clear${field[0]!.toUpperCase()}${field.slice(1)}` as keyof PatientFlags;
    if (flags[clearFlag]) {
      if (flags[field] !== undefined) throw new UsageError(`--${field} and --clear-${field} contradict each other.`);
      const key = field === 'dob' ? 'date_of_birth' : field;
      input[key] = null;
    }
  }
  return input;
}

/** The API path of a patient; a non-UUID id is refused locally (exit 2) instead of costing a 400. */
export async function patientPath(id: string): Promise<string> {
  const { looksLikeUuid } = await import('../../util/ids.js');
  if (!looksLikeUuid(id)) {
    throw new UsageError(`"${id}" is not a patient id (a UUID).`, ['Find one with `msgctl patients list --phone …` or `--mrn …`.']);
  }
  return `/patients/${id.toLowerCase()}`;
}

export function requireText(value: string, flag: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new UsageError(`${flag} must not be empty.`);
  return trimmed;
}
