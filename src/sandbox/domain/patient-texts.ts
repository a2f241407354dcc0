/**
 * Pages of GET /patients as JSON text. A patient's view is a function of its
 * stored record and its conversation count only, so the text made for one
 * (record text, count) pair is kept and served again while both are the
 * same: a page costs one SQL statement (roster range with the counts) and a
 * string comparison per row, not a parse, a view and a stringify. Nothing
 * needs invalidating: any change of the record or the count is a different
 * key. A record changed in memory but not yet written back (rare, within one
 * turn) is served from that object.
 */
import type { SandboxContext } from '../context.js';
import type { StoredRow } from '../store/table.js';
import type { PatientRecord } from './records.js';
import { patientView } from './views.js';

export interface PatientText {
  id: string;
  created_at: string;
  /** The patient's view as JSON text (matched_by null). */
  json: string;
}

interface StoredPatient extends StoredRow {
  created_at: string;
  n: number;
}

/** Texts kept per sandbox; a whole `patients list --all` of a large roster passes through, oldest dropped first. */
const KEPT = 4096;
const kept = new WeakMap<SandboxContext, Map<string, { data: string; count: number; json: string }>>();

/** Patients of the roster (optionally one phone and/or MRN) after a position, oldest first, with their view texts. */
export function rosterTexts(
  sb: SandboxContext,
  orgId: string,
  only: { phone?: string; mrn?: string },
  after: { key: number | string; id: string } | null,
  limit: number,
): PatientText[] {
  let sql = 'org_id = ? AND deleted_at IS NULL';
  const params: (string | number)[] = [orgId];
  if (only.phone !== undefined) {
    sql += ' AND phone = ?';
    params.push(only.phone);
  }
  if (only.mrn !== undefined) {
    sql += ' AND mrn = ?';
    params.push(only.mrn);
  }
  if (after) {
    sql += ' AND (created_at, id) > (?, ?)';
    params.push(String(after.key), after.id);
  }
  const rows = sb.db.patients.texts<StoredPatient>(
    't.data AS data, t.created_at AS created_at, (SELECT count(*) FROM conversations AS c WHERE c.patient_id = t.id) AS n',
    sql,
    params,
    'created_at, id',
    limit,
  );
  return rows.map((row) => ({ id: row.id, created_at: row.created_at, json: viewText(sb, row) }));
}

function viewText(sb: SandboxContext, row: StoredPatient): string {
  const count = Number(row.n);
  const held = sb.db.patients.inMemory(row.id);
  if (held) return JSON.stringify(patientView(sb, held, null, count));
  let texts = kept.get(sb);
  if (!texts) kept.set(sb, (texts = new Map()));
  const known = texts.get(row.id);
  if (known && known.data === row.data && known.count === count) return known.json;
  const json = JSON.stringify(patientView(sb, JSON.parse(row.data) as PatientRecord, null, count));
  if (known) texts.delete(row.id);
  else if (texts.size >= KEPT) texts.delete(texts.keys().next().value!);
  texts.set(row.id, { data: row.data, count, json });
  return json;
}
