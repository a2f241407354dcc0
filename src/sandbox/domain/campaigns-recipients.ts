/**
 * Adding and removing campaign recipients (POST /campaigns/{id}/recipients
 * and …/recipients/remove; the spec leaves both bodies open, docs/campaigns.md
 * fixes them): `{ "patient_ids": [...] }`, 1 to 1,000 ids per call, only
 * while the campaign is draft or paused.
 *
 * One bad id does not fail the call: the response sorts every id into an
 * outcome list, so a script can retry or report just those.
 */
import type { Campaign } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import { FieldErrors } from '../problem.js';
import { findPatient } from './patients.js';
import { looksLikeUuid } from '../validation/formats.js';
import {
  campaignView,
  deleteRecipient,
  insertRecipient,
  notEditable,
  recipientOf,
  type CampaignRecord,
} from './campaigns.js';

export const MAX_RECIPIENT_IDS_PER_CALL = 1000;

export interface AddRecipientsResult {
  /** Now on the campaign, in the order given. */
  added: string[];
  /** Already on the campaign (or repeated in this call): nothing changed. */
  already_present: string[];
  /** No such patient in the organization (unknown or deleted). */
  not_found: string[];
  campaign: Campaign;
}

export interface RemoveRecipientsResult {
  removed: string[];
  /** Not on the campaign. */
  not_found: string[];
  /** On the campaign but no longer pending (being sent, sent, skipped…): kept. */
  not_removable: string[];
  campaign: Campaign;
}

/** The `patient_ids` array: 1..1,000 UUIDs, lower-cased; 422 otherwise (nothing changes). */
function patientIdsOf(raw: unknown): string[] {
  const errors = new FieldErrors();
  const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const ids = body?.patient_ids;
  if (!body) errors.add('', 'invalid_type', 'The body must be a JSON object with patient_ids.');
  else if (ids === undefined) errors.add('/patient_ids', 'required', 'patient_ids is required.');
  else if (!Array.isArray(ids)) errors.add('/patient_ids', 'invalid_type', 'patient_ids must be an array of patient ids.');
  else if (ids.length === 0) errors.add('/patient_ids', 'required', 'patient_ids must list at least one patient id.');
  else if (ids.length > MAX_RECIPIENT_IDS_PER_CALL) {
    errors.add('/patient_ids', 'too_long', `patient_ids lists ${ids.length} ids; send at most ${MAX_RECIPIENT_IDS_PER_CALL} per call.`);
  } else {
    ids.forEach((id, i) => {
      if (typeof id !== 'string' || !looksLikeUuid(id)) errors.add(`/patient_ids/${i}`, 'invalid', 'Each patient id must be a UUID.');
    });
  }
  if (body) {
    for (const key of Object.keys(body)) if (key !== 'patient_ids') errors.add(`/${key}`, 'unknown_field', `${key} is not accepted here.`);
  }
  errors.throwIfAny();
  return (ids as string[]).map((id) => id.toLowerCase());
}

function requireEditable(c: CampaignRecord, what: string): void {
  if (c.status !== 'draft' && c.status !== 'paused') throw notEditable(c, `recipients can be ${what} only while the campaign is draft or paused.`);
}

export function addRecipients(sb: SandboxContext, c: CampaignRecord, raw: unknown): AddRecipientsResult {
  const ids = patientIdsOf(raw);
  requireEditable(c, 'added');
  const result: Omit<AddRecipientsResult, 'campaign'> = { added: [], already_present: [], not_found: [] };
  for (const id of ids) {
    if (recipientOf(sb, c.id, id)) result.already_present.push(id);
    else if (!findPatient(sb, c.orgId, id)) result.not_found.push(id);
    else {
      insertRecipient(sb, c.id, id);
      result.added.push(id);
    }
  }
  sb.store.changed();
  return { ...result, campaign: campaignView(sb, c) };
}

export function removeRecipients(sb: SandboxContext, c: CampaignRecord, raw: unknown): RemoveRecipientsResult {
  const ids = patientIdsOf(raw);
  requireEditable(c, 'removed');
  const result: Omit<RemoveRecipientsResult, 'campaign'> = { removed: [], not_found: [], not_removable: [] };
  for (const id of ids) {
    const row = recipientOf(sb, c.id, id);
    if (!row) {
      // A repeat of an id removed earlier in this call counts once.
      if (!result.removed.includes(id)) result.not_found.push(id);
    } else if (row.status !== 'pending') result.not_removable.push(id);
    else {
      deleteRecipient(sb, row);
      result.removed.push(id);
    }
  }
  sb.store.changed();
  return { ...result, campaign: campaignView(sb, c) };
}
