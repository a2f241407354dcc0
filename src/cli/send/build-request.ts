/**
 * Builds and validates a POST /patient-messages body from the CLI's inputs,
 * before anything is sent (product.md §3: bad input is exit 2, zero requests).
 * Shared by the one-off `send` and the CSV batch.
 */
import type { Channel, SendMessageRequest } from '../../contract/api.js';
import { LIMITS } from '../../contract/api.js';
import { UsageError } from '../errors.js';
import { bodyLength } from '../util/text.js';
import { normalizePhone, regionHint } from '../util/phone.js';
import { normalizeDate, type DateOrder } from '../util/dates.js';
import { DATE_ORDER_HINTS } from '../util/date-order.js';
import { looksLikeUuid } from '../util/ids.js';
import { looksLikeEmail } from '../util/email.js';

export interface SendInputs {
  to: string;
  body: string;
  channel?: Channel;
  from?: string;
  region: string;
  firstName?: string;
  lastName?: string;
  dob?: string;
  /** How a numeric --dob is read; without one, an ambiguous date is a problem (util/dates.ts). */
  dateOrder?: DateOrder;
  /** Where dateOrder came from, for errors (util/date-order.ts resolveDateOrder). */
  dateOrderFrom?: string;
  email?: string;
  mrn?: string;
}

export type BuildResult =
  | { ok: true; request: SendMessageRequest }
  /** hints: ways out for a person (a national number read in the wrong region, an ambiguous date). */
  | { ok: false; problems: string[]; hints: string[] };

/** Returns every problem at once so a CSV row can report them all. */
export function buildSendRequest(inputs: SendInputs): BuildResult {
  const problems: string[] = [];
  const hints: string[] = [];
  const request: Partial<SendMessageRequest> = {};

  const to = inputs.to.trim();
  if (!to) problems.push('recipient is empty');
  else if (looksLikeUuid(to)) request.to = { patient_id: to.toLowerCase() };
  else {
    const phone = normalizePhone(to, inputs.region);
    if (phone.ok) request.to = { phone: phone.e164 };
    else {
      problems.push(`recipient "${to}" is neither a patient id nor a phone number (${phone.reason})`);
      hints.push(...regionHint(to, inputs.region));
    }
  }

  const length = bodyLength(inputs.body);
  if (!inputs.body.trim()) problems.push('message body is empty');
  else if (length > LIMITS.bodyMaxChars) {
    problems.push(`message body is ${length} characters; the limit is ${LIMITS.bodyMaxChars}`);
  }
  request.body = inputs.body;

  if (inputs.channel) {
    if (inputs.channel !== 'secure' && inputs.channel !== 'sms') problems.push(`channel must be secure or sms (got "${inputs.channel}")`);
    else request.channel = inputs.channel;
  }
  if (inputs.from) {
    const from = normalizePhone(inputs.from, inputs.region);
    if (from.ok) request.from = from.e164;
    else problems.push(`from number "${inputs.from}": ${from.reason}`);
  }

  const patient: NonNullable<SendMessageRequest['patient']> = {};
  if (inputs.firstName) patient.first_name = inputs.firstName.trim();
  if (inputs.lastName) patient.last_name = inputs.lastName.trim();
  if (inputs.email) {
    if (looksLikeEmail(inputs.email)) patient.email = inputs.email.trim();
    else problems.push(`email "${inputs.email}" is not an email address`);
  }
  if (inputs.mrn) patient.mrn = inputs.mrn.trim();
  if (inputs.dob) {
    const dob = normalizeDate(inputs.dob, { notInFuture: true, order: inputs.dateOrder, orderFrom: inputs.dateOrderFrom });
    if (dob.ok) patient.date_of_birth = dob.date;
    else {
      problems.push(`date of birth "${inputs.dob}": ${dob.reason}`);
      if (dob.ambiguous) hints.push(...DATE_ORDER_HINTS);
    }
  }
  if (Object.keys(patient).length) {
    if (request.to && 'patient_id' in request.to) {
      problems.push('patient details (--first-name, --mrn, …) only apply when sending to a phone number');
    } else request.patient = patient;
  }

  return problems.length ? { ok: false, problems, hints } : { ok: true, request: request as SendMessageRequest };
}

export function assertSendRequest(inputs: SendInputs): SendMessageRequest {
  const result = buildSendRequest(inputs);
  if (!result.ok) throw new UsageError(`Not sent: ${result.problems.join('; ')}.`, result.hints);
  return result.request;
}
