/**
 * Reading the query parameters of the message lists (GET /patient-messages,
 * GET /me/messages) into typed values for the domain: times (`after`,
 * `before`: an RFC 3339 timestamp, or a date meaning midnight in the
 * organization's time zone), choices and UUIDs. Each malformed value is a
 * 400 naming its parameter.
 */
import type { SandboxContext } from '../context.js';
import type { ApiRequest } from '../http/route.js';
import { problems } from '../problem.js';
import { parseCalendarDate, parseRfc3339, startOfDayMs } from '../../contract/timestamps.js';
import { messageQuery, type MessageQuery } from '../domain/message-query.js';
import { looksLikeUuid } from '../validation/formats.js';
import { refuseEmptyFilters } from './empty-filter.js';

/** The query parameters of GET /patient-messages (§4.4), besides page[limit] and page[after]. */
export const MESSAGE_LIST_PARAMETERS = ['after', 'before', 'group_by', 'order', 'patient_id', 'conversation_id', 'q'] as const;

/**
 * `after`/`before` as epoch ms: an RFC 3339 timestamp, or a YYYY-MM-DD date
 * meaning the start of that day in `timeZone`. 400 naming the parameter otherwise.
 */
export function parseTimeParam(name: string, raw: string, timeZone: string): number {
  const date = parseCalendarDate(raw);
  if (date.ok) return startOfDayMs(date.value, timeZone);
  const instant = parseRfc3339(raw);
  if (instant.ok) return instant.value;
  const why = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? date.reason : instant.reason;
  throw problems.badParameter(name, `${name} must be an RFC 3339 timestamp or a YYYY-MM-DD date (got "${raw}": ${why}).`);
}

/** One of `allowed`, or `fallback` when absent or empty; 400 naming the parameter otherwise. */
export function choiceParam<T extends string>(req: ApiRequest, name: string, allowed: readonly T[], fallback: T): T {
  const raw = req.query[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw problems.badParameter(name, `${name} must be one of ${allowed.join(', ')} (got "${raw}").`);
  }
  return raw as T;
}

/** A UUID (lower-cased), or null when absent; 422 when empty (empty-filter.ts), 400 naming the parameter when malformed. */
export function uuidQueryParam(req: ApiRequest, name: string): string | null {
  refuseEmptyFilters(req, [name]);
  const raw = req.query[name];
  if (raw === undefined) return null;
  if (!looksLikeUuid(raw)) throw problems.badParameter(name, `${name} must be a UUID (got "${raw}").`);
  return raw.toLowerCase();
}

/** GET /patient-messages' parameters, checked, as the domain's MessageQuery. */
export function readMessageQuery(req: ApiRequest, sb: SandboxContext): MessageQuery {
  const timeZone = sb.db.orgs.get(req.principal.orgId)?.timeZone ?? 'UTC';
  const { after, before } = req.query;
  return messageQuery(sb, req.principal, {
    afterMs: after ? parseTimeParam('after', after, timeZone) : null,
    beforeMs: before ? parseTimeParam('before', before, timeZone) : null,
    order: choiceParam(req, 'order', ['desc', 'asc'] as const, 'desc'),
    groupBy: choiceParam(req, 'group_by', ['message', 'conversation'] as const, 'message'),
    patientId: uuidQueryParam(req, 'patient_id'),
    conversationId: uuidQueryParam(req, 'conversation_id'),
    q: req.query.q ?? '',
  });
}
