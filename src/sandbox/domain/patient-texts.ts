/**
 * Pages of GET /patients as JSON text. A patient's view is a function of its
 * stored record and its conversation count only, so the text made for a row
 * is kept with the (record text, count) it was made from and served again
 * while the row still has both: a page costs one SQL statement (a roster
 * range with each row's record text and its conversation count, a column the
 * store keeps by triggers: schema.ts `counts`) and a string comparison per
 * row, not a parse, a view and a stringify. Nothing needs invalidating: any
 * change of the record or the count fails the comparison. A record changed in
 * memory but not yet written back (rare, within one turn) is served from that
 * object.
 */
import type { SandboxContext } from '../context.js';
import type { PatientRecord } from './records.js';
import { patientView } from './views.js';

export interface PatientText {
  id: string;
  created_at: string;
  /** The patient's view as JSON text (matched_by null). */
  json: string;
}

/** A roster row as textRows gives it: id, rowid, the record's stored text, its conversation count. */
type StoredPatient = [id: string, rowid: number, data: string, count: number | bigint];

interface Kept {
  data: string;
  count: number;
  created_at: string;
  json: string;
}

/** Texts kept per sandbox; a whole `patients list --all` of a large roster passes through, oldest dropped first. */
const KEPT = 4096;
/**
 * By rowid, not id: a number is found without hashing the page's freshly read id strings (~3%
 * of a page's work). A rowid used again for another patient holds other data: not a match.
 */
const kept = new WeakMap<SandboxContext, Map<number, Kept>>();

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
  // Not t.created_at: a generated column, so a json_extract of the record per row; the kept text
  // (or the parsed record) has it.
  const rows = sb.db.patients.textRows('t.rowid, t.data, t.conversation_count', sql, params, 'created_at, id', limit) as StoredPatient[];
  let texts = kept.get(sb);
  if (!texts) kept.set(sb, (texts = new Map()));
  const out: PatientText[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = viewText(sb, texts, rows[i]!);
  return out;
}

function viewText(sb: SandboxContext, texts: Map<number, Kept>, row: StoredPatient): PatientText {
  const id = row[0];
  const rowid = row[1];
  const data = row[2];
  const count = Number(row[3]);
  const held = sb.db.patients.inMemory(id);
  if (held) return { id, created_at: held.created_at, json: JSON.stringify(patientView(sb, held, null, count)) };
  const known = texts.get(rowid);
  if (known && known.data === data && known.count === count) return { id, created_at: known.created_at, json: known.json };
  const record = JSON.parse(data) as PatientRecord;
  const json = JSON.stringify(patientView(sb, record, null, count));
  if (known) texts.delete(rowid);
  else if (texts.size >= KEPT) texts.delete(texts.keys().next().value!);
  texts.set(rowid, { data, count, created_at: record.created_at, json });
  return { id, created_at: record.created_at, json };
}
