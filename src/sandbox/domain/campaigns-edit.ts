/**
 * Creating and editing campaigns (POST and PATCH /campaigns, §4.6): body
 * validation (422 validation_failed listing every field), the clinic number,
 * and which fields each status allows (409 campaign_not_editable).
 *
 * Checks run in that order: a malformed request is a 422 whatever the
 * campaign's status; a well-formed change the status forbids is a 409.
 */
import type { Channel } from '../../contract/api.js';
import { LIMITS } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import { FieldErrors, problems } from '../problem.js';
import type { PhoneNumberRecord } from './records.js';
import { resolveFromNumber, type MessageSender } from './patient-messages.js';
import { bodyLength } from '../validation/formats.js';
import { campaignTable, notEditable, type CampaignRecord } from './campaigns.js';

/** Longest campaign name accepted (docs/campaigns.md). */
export const MAX_NAME_CHARS = 200;
/** Default seconds between messages when the create body gives none (docs/campaigns.md). */
export const DEFAULT_SEND_INTERVAL_SECONDS = 1;
/** A day between two messages is surely a mistake (docs/campaigns.md). */
export const MAX_SEND_INTERVAL_SECONDS = 86_400;

const E164 = /^\+[1-9]\d{6,14}$/;
const CREATE_FIELDS = new Set(['name', 'body', 'channel', 'from', 'send_interval_seconds']);
const UPDATE_FIELDS = new Set([...CREATE_FIELDS, 'archived']);

export interface CampaignFields {
  name?: string;
  body?: string;
  channel?: Channel;
  from?: string;
  send_interval_seconds?: number;
  archived?: boolean;
}

/** Shape checks only; throws one 422 with every field error. Unknown fields are refused, not ignored. */
export function validateCampaignFields(raw: unknown, mode: 'create' | 'update'): CampaignFields {
  const errors = new FieldErrors();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.add('', 'invalid_type', 'The body must be a JSON object.');
    errors.throwIfAny();
  }
  const b = raw as Record<string, unknown>;
  const allowed = mode === 'create' ? CREATE_FIELDS : UPDATE_FIELDS;
  for (const key of Object.keys(b)) {
    if (!allowed.has(key)) errors.add(`/${key}`, 'unknown_field', `${key} is not a field of a campaign ${mode === 'create' ? 'create' : 'update'}.`);
  }
  const fields: CampaignFields = {};
  const required = mode === 'create';

  const text = (key: 'name' | 'body', max: number) => {
    const value = b[key];
    if (value === undefined) {
      if (required) errors.add(`/${key}`, 'required', `${key} is required.`);
    } else if (typeof value !== 'string') errors.add(`/${key}`, 'invalid_type', `${key} must be a string.`);
    else if (!value.trim()) errors.add(`/${key}`, 'required', `${key} must not be empty.`);
    else if (bodyLength(value) > max) errors.add(`/${key}`, 'too_long', `${key} is ${bodyLength(value)} characters; the limit is ${max}.`);
    else fields[key] = key === 'name' ? value.trim() : value;
  };
  text('name', MAX_NAME_CHARS);
  text('body', LIMITS.bodyMaxChars);

  if (b.channel !== undefined) {
    if (b.channel === 'secure' || b.channel === 'sms') fields.channel = b.channel;
    else errors.add('/channel', 'invalid', 'channel must be "secure" or "sms".');
  }
  if (b.from !== undefined) {
    if (typeof b.from === 'string' && E164.test(b.from)) fields.from = b.from;
    else errors.add('/from', 'invalid', 'from must be a phone number in E.164 form, e.g. +15555550100.');
  }
  if (b.send_interval_seconds !== undefined) {
    const n = b.send_interval_seconds;
    if (typeof n !== 'number' || !Number.isFinite(n)) errors.add('/send_interval_seconds', 'invalid_type', 'send_interval_seconds must be a number.');
    else if (n < 0 || n > MAX_SEND_INTERVAL_SECONDS) {
      errors.add('/send_interval_seconds', 'out_of_range', `send_interval_seconds must be from 0 to ${MAX_SEND_INTERVAL_SECONDS}.`);
    } else fields.send_interval_seconds = n;
  }
  if (b.archived !== undefined) {
    if (typeof b.archived === 'boolean') fields.archived = b.archived;
    else errors.add('/archived', 'invalid_type', 'archived must be true or false.');
  }
  errors.throwIfAny();
  return fields;
}

/**
 * The campaign's clinic number. A `from` that is not one of the organization's
 * numbers is a 422 on /from (POST /campaigns lists no 404); without `from`,
 * the creator's default number, else the only number, else 422 from_required.
 */
function campaignNumber(sb: SandboxContext, sender: MessageSender, from: string | undefined): PhoneNumberRecord {
  if (from !== undefined) {
    const found = sb.db.phoneNumbers.find((n) => n.orgId === sender.orgId && n.number === from);
    if (!found) {
      throw problems.validation([{ path: '/from', code: 'unknown_number', message: `${from} is not one of the organization's phone numbers.` }]);
    }
    return found;
  }
  return resolveFromNumber(sb, sender, null);
}

export function createCampaign(sb: SandboxContext, sender: MessageSender, raw: unknown): CampaignRecord {
  const fields = validateCampaignFields(raw, 'create');
  const number = campaignNumber(sb, sender, fields.from);
  const record = campaignTable(sb).insert({
    id: sb.newId(),
    seq: sb.store.nextSeq(),
    orgId: sender.orgId,
    name: fields.name!,
    status: 'draft',
    channel: fields.channel ?? 'secure',
    body: fields.body!,
    phoneNumberId: number.id,
    sender,
    send_interval_seconds: fields.send_interval_seconds ?? DEFAULT_SEND_INTERVAL_SECONDS,
    archived: false,
    created_at: sb.clock.iso(),
    started_at: null,
    finished_at: null,
  });
  sb.store.changed();
  return record;
}

/**
 * PATCH rules (§4.6): name and send_interval_seconds in any status; body and
 * channel in draft or paused; from in draft only; archived in any status but
 * running. A body that changes nothing the status forbids is allowed.
 */
export function updateCampaign(sb: SandboxContext, c: CampaignRecord, raw: unknown): void {
  const fields = validateCampaignFields(raw, 'update');
  const editable = c.status === 'draft' || c.status === 'paused';
  for (const key of ['body', 'channel'] as const) {
    if (fields[key] !== undefined && !editable) throw notEditable(c, `${key} can change only while the campaign is draft or paused.`);
  }
  if (fields.from !== undefined && c.status !== 'draft') throw notEditable(c, 'from can change only while the campaign is a draft.');
  if (fields.archived !== undefined && c.status === 'running') {
    throw notEditable(c, 'a running campaign cannot be archived or unarchived; pause or stop it first.');
  }
  const number = fields.from !== undefined ? campaignNumber(sb, c.sender, fields.from) : undefined;

  if (fields.name !== undefined) c.name = fields.name;
  if (fields.body !== undefined) c.body = fields.body;
  if (fields.channel !== undefined) c.channel = fields.channel;
  if (number) c.phoneNumberId = number.id;
  if (fields.send_interval_seconds !== undefined) c.send_interval_seconds = fields.send_interval_seconds;
  if (fields.archived !== undefined) c.archived = fields.archived;
  campaignTable(sb).put(c);
  sb.store.changed();
  // The sender re-times the wait in progress, so a shorter interval applies at once.
  if (fields.send_interval_seconds !== undefined) sb.events.emit('campaign.interval_changed', c);
}
