/**
 * Patient records (api-spec §2.3, §4.7): validating bodies, the
 * create-or-match rule of POST /patients, lookups that every other domain
 * (sending, campaigns, imports, search) shares, updates and deletion.
 *
 * Deleting sets `deleted_at` instead of dropping the row, so messages sent
 * earlier still name their patient; every lookup here skips deleted rows, so
 * use these helpers rather than reading sb.db.patients directly.
 */
import type { FieldError, PatientInput } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { PatientRecord } from './records.js';
import { normalizePhone } from '../validation/phone.js';
import { looksLikeEmail } from '../validation/formats.js';

/** The patient fields a create or PATCH body may carry: the API's own input shape. */
export type PatientFields = PatientInput;

export type MatchedBy = 'mrn' | 'phone' | 'email';

/** Longest name, email or MRN accepted; longer values are surely a mistake (docs/sandbox.md). */
const MAX_TEXT = 200;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Validates a raw JSON body for create ('create') or PATCH ('update'). Phone
 * numbers in any common format become E.164 (region US). Unknown fields are
 * ignored. Returns field errors with JSON-pointer paths instead of throwing.
 */
export function validatePatientFields(raw: unknown, mode: 'create' | 'update'): { fields: PatientFields; errors: FieldError[] } {
  const fields: PatientFields = {};
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => errors.push({ path: `/${field}`, code, message });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { fields, errors: [{ path: '', code: 'invalid_type', message: 'The body must be a JSON object.' }] };
  }
  const body = raw as Record<string, unknown>;

  for (const name of ['first_name', 'last_name'] as const) {
    const value = body[name];
    if (value === undefined) {
      if (mode === 'create') fail(name, 'required', `${name} is required.`);
    } else if (value === null) {
      fail(name, mode === 'create' ? 'required' : 'not_nullable', `${name} cannot be null.`);
    } else if (typeof value !== 'string') {
      fail(name, 'invalid_type', `${name} must be a string.`);
    } else if (!value.trim()) {
      fail(name, 'required', `${name} must not be empty.`);
    } else if (value.length > MAX_TEXT) {
      fail(name, 'too_long', `${name} must be at most ${MAX_TEXT} characters.`);
    } else fields[name] = value.trim();
  }

  const text = (name: 'date_of_birth' | 'phone' | 'email' | 'mrn'): string | null | undefined => {
    const value = body[name];
    if (value === undefined || value === null) return value;
    if (typeof value !== 'string') {
      fail(name, 'invalid_type', `${name} must be a string or null.`);
      return undefined;
    }
    const trimmed = value.trim();
    if (!trimmed) {
      fail(name, 'invalid', `${name} must not be empty; send null to clear it.`);
      return undefined;
    }
    if (trimmed.length > MAX_TEXT) {
      fail(name, 'too_long', `${name} must be at most ${MAX_TEXT} characters.`);
      return undefined;
    }
    return trimmed;
  };

  const dob = text('date_of_birth');
  if (dob === null) fields.date_of_birth = null;
  else if (dob !== undefined) {
    if (isRealDate(dob)) fields.date_of_birth = dob;
    else fail('date_of_birth', 'invalid', 'date_of_birth must be a real date written YYYY-MM-DD.');
  }

  const phone = text('phone');
  if (phone === null) fields.phone = null;
  else if (phone !== undefined) {
    const normalized = normalizePhone(phone, 'US');
    if (normalized.ok) fields.phone = normalized.e164;
    else fail('phone', 'invalid', `phone is not a usable phone number: ${normalized.reason}.`);
  }

  const email = text('email');
  if (email === null) fields.email = null;
  else if (email !== undefined) {
    if (looksLikeEmail(email)) fields.email = email;
    else fail('email', 'invalid', 'email is not an email address.');
  }

  const mrn = text('mrn');
  if (mrn !== undefined) fields.mrn = mrn;

  if (mode === 'create' && !fields.phone && !fields.email && !errors.some((e) => e.path === '/phone' || e.path === '/email')) {
    fail('phone', 'required', 'Provide a phone, an email, or both.');
  }
  return { fields, errors };
}

function isRealDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1800 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Live (not deleted) patients of an organization, oldest first. */
export function orgPatients(sb: SandboxContext, orgId: string): PatientRecord[] {
  return sb.db.patients.where('org_id = ? AND deleted_at IS NULL', [orgId], 'created_at, id');
}

export function byCreation(a: PatientRecord, b: PatientRecord): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A live patient of the organization, or undefined (unknown, deleted, or another org's). */
export function findPatient(sb: SandboxContext, orgId: string, id: string): PatientRecord | undefined {
  const p = sb.db.patients.get(id);
  return p && p.orgId === orgId && !p.deleted_at ? p : undefined;
}

/** Live patients with this E.164 phone, oldest first. */
type LookupField = 'phone' | 'mrn' | 'email';

/**
 * Live patients of an org whose field equals the value (email case-insensitively),
 * oldest first, through an index on the patients table: matching an import of
 * 100,000 rows must not scan every patient for each row.
 */
function patientsBy(sb: SandboxContext, orgId: string, field: LookupField, value: string): PatientRecord[] {
  const column = field === 'email' ? 'email_key' : field;
  const key = field === 'email' ? value.toLowerCase() : value;
  return sb.db.patients.where(`org_id = ? AND ${column} = ? AND deleted_at IS NULL`, [orgId, key], 'created_at, id');
}

export function patientsByPhone(sb: SandboxContext, orgId: string, e164: string): PatientRecord[] {
  return patientsBy(sb, orgId, 'phone', e164);
}

export function patientsByMrn(sb: SandboxContext, orgId: string, mrn: string): PatientRecord[] {
  return patientsBy(sb, orgId, 'mrn', mrn);
}

/** Inserts a new patient; names default to empty (a send to an unknown phone knows none). */
export function createPatient(sb: SandboxContext, orgId: string, fields: PatientFields): PatientRecord {
  const record = sb.db.patients.insert({
    id: sb.newId(),
    orgId,
    first_name: fields.first_name ?? '',
    last_name: fields.last_name ?? '',
    date_of_birth: fields.date_of_birth ?? null,
    phone: fields.phone ?? null,
    email: fields.email ?? null,
    mrn: fields.mrn ?? null,
    optedOutFrom: [],
    created_at: sb.clock.iso(),
    deleted_at: null,
  });
  sb.store.changed();
  return record;
}

/**
 * Which existing patient `fields` describes, per POST /patients: MRN first,
 * then phone, then email. A phone or email match is skipped when both sides
 * have MRNs that differ: an MRN identifies a person, and families share
 * phones and emails. Among several phone (or email) matches, one with the
 * same name wins, else the oldest.
 */
export function matchPatient(
  sb: SandboxContext,
  orgId: string,
  fields: PatientFields,
): { patient: PatientRecord; matchedBy: MatchedBy } | null {
  if (fields.mrn) {
    const byMrn = patientsByMrn(sb, orgId, fields.mrn)[0];
    if (byMrn) return { patient: byMrn, matchedBy: 'mrn' };
  }
  const compatible = (p: PatientRecord) => !(fields.mrn && p.mrn && p.mrn !== fields.mrn);
  const pick = (candidates: PatientRecord[]) => candidates.find((p) => sameName(p, fields)) ?? candidates[0];
  if (fields.phone) {
    const byPhone = pick(patientsBy(sb, orgId, 'phone', fields.phone).filter(compatible));
    if (byPhone) return { patient: byPhone, matchedBy: 'phone' };
  }
  if (fields.email) {
    const byEmail = pick(patientsBy(sb, orgId, 'email', fields.email).filter(compatible));
    if (byEmail) return { patient: byEmail, matchedBy: 'email' };
  }
  return null;
}

function sameName(p: PatientRecord, fields: PatientFields): boolean {
  const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();
  return norm(p.first_name) === norm(fields.first_name) && norm(p.last_name) === norm(fields.last_name);
}

/** POST /patients semantics: the existing patient unchanged (matchedBy set), or a new one. */
export function createOrMatchPatient(
  sb: SandboxContext,
  orgId: string,
  fields: PatientFields,
): { patient: PatientRecord; matchedBy: MatchedBy | null; created: boolean } {
  const match = matchPatient(sb, orgId, fields);
  if (match) return { ...match, created: false };
  return { patient: createPatient(sb, orgId, fields), matchedBy: null, created: true };
}

/**
 * Applies a validated PATCH: only the given fields change, null clears. Returns
 * field errors (without changing anything) when the result would leave the
 * patient with neither phone nor email, which no message could reach.
 */
export function updatePatient(sb: SandboxContext, patient: PatientRecord, fields: PatientFields): FieldError[] {
  const next: PatientRecord = { ...patient };
  for (const [key, value] of Object.entries(fields) as [keyof PatientFields, unknown][]) {
    if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
  }
  if (!next.phone && !next.email) {
    const path = fields.email === null ? '/email' : '/phone';
    return [{ path, code: 'required', message: 'A patient keeps a phone, an email, or both; set one before clearing the other.' }];
  }
  // Opt-outs belong to the phone that sent STOP; a new phone starts subscribed.
  if (next.phone !== patient.phone) next.optedOutFrom = [];
  // In place, so records other code holds stay current.
  sb.db.patients.put(Object.assign(patient, next));
  sb.store.changed();
  return [];
}

export function deletePatient(sb: SandboxContext, patient: PatientRecord): void {
  patient.deleted_at = sb.clock.iso();
  sb.db.patients.put(patient);
  sb.store.changed();
}
