/**
 * The parameters of GET /patient-messages (api-spec §4.4), read and checked
 * once per request: the time window (`after`/`before`, dates meaning midnight
 * in the organization's time zone), `order`, `group_by`, `patient_id`,
 * `conversation_id`, `q`, and the API-key range rule. The result says which
 * messages a request covers; message-pages.ts cuts it into pages.
 */
import { createHash } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import type { ApiRequest } from '../http/route.js';
import { queryParam } from '../http/route.js';
import { ProblemError } from '../http/problem.js';
import { compileQuery, parseQuery, QueryParseError, type MessagePredicate, type SearchableMessage } from '../search/index.js';
import { parseCalendarDate, parseRfc3339, startOfDayMs } from '../../contract/timestamps.js';
import { isUnread, patientName } from './views.js';
import type { MessageRecord } from './records.js';
import type { Window } from './message-index.js';
import { looksLikeUuid } from '../validation/formats.js';

export type Order = 'asc' | 'desc';
export type GroupBy = 'message' | 'conversation';

export interface MessageQuery {
  orgId: string;
  /** The `after`/`before` range as positions. */
  window: Window;
  order: Order;
  groupBy: GroupBy;
  patientId: string | null;
  conversationId: string | null;
  /** Organization, patient conversations only, and `q`. */
  matches: (m: MessageRecord) => boolean;
  /** A `q` narrows the list (beyond organization and patient conversations). */
  filtered: boolean;
  /** Names this list for cursors: a cursor only continues the list it came from. */
  list: string;
}


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
  throw new ProblemError(400, 'invalid_request', `${name} must be an RFC 3339 timestamp or a YYYY-MM-DD date (got "${raw}": ${why}).`, [], {
    parameter: name,
  });
}

function choice<T extends string>(req: ApiRequest, name: string, allowed: readonly T[], fallback: T): T {
  const raw = queryParam(req, name);
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ProblemError(400, 'invalid_request', `${name} must be one of ${allowed.join(', ')} (got "${raw}").`, [], { parameter: name });
  }
  return raw as T;
}

function uuidParam(req: ApiRequest, name: string): string | null {
  const raw = queryParam(req, name);
  if (raw === undefined || raw === '') return null;
  if (!looksLikeUuid(raw)) {
    throw new ProblemError(400, 'invalid_request', `${name} must be a UUID (got "${raw}").`, [], { parameter: name });
  }
  return raw.toLowerCase();
}

export function readMessageQuery(req: ApiRequest, sb: SandboxContext): MessageQuery {
  const orgId = req.principal.orgId;
  const timeZone = sb.db.orgs.get(orgId)?.timeZone ?? 'UTC';
  const afterRaw = queryParam(req, 'after');
  const beforeRaw = queryParam(req, 'before');
  const afterMs = afterRaw ? parseTimeParam('after', afterRaw, timeZone) : null;
  const beforeMs = beforeRaw ? parseTimeParam('before', beforeRaw, timeZone) : null;
  const order = choice(req, 'order', ['desc', 'asc'] as const, 'desc');
  const groupBy = choice(req, 'group_by', ['message', 'conversation'] as const, 'message');
  const patientId = uuidParam(req, 'patient_id');
  const conversationId = uuidParam(req, 'conversation_id');
  const q = queryParam(req, 'q') ?? '';

  let predicate: MessagePredicate | null = null;
  try {
    const ast = parseQuery(q);
    if (ast.type !== 'all') predicate = compileQuery(ast);
  } catch (err) {
    if (err instanceof QueryParseError) throw new ProblemError(400, 'invalid_query', err.message, [], { position: err.position });
    throw err;
  }

  if (req.principal.kind === 'api_key' && afterMs === null && !patientId && !conversationId) {
    throw new ProblemError(
      400,
      'range_required',
      'An API key must bound this read: pass after, patient_id or conversation_id.',
    );
  }

  const list = 'patient-messages:' + createHash('sha256')
    .update(JSON.stringify([orgId, afterMs, beforeMs, order, groupBy, patientId, conversationId, q]))
    .digest('base64url')
    .slice(0, 16);

  return {
    orgId,
    window: {
      from: afterMs === null ? null : { ms: afterMs, id: '' },
      to: beforeMs === null ? null : { ms: beforeMs, id: '' },
    },
    order,
    groupBy,
    patientId,
    conversationId,
    matches: messageFilter(sb, orgId, predicate),
    filtered: predicate !== null,
    list,
  };
}

/** Messages of the organization's patient conversations that satisfy `predicate` (all of them when null). */
export function messageFilter(sb: SandboxContext, orgId: string, predicate: MessagePredicate | null): (m: MessageRecord) => boolean {
  const { conversations, patients, phoneNumbers } = sb.db;
  // One object refilled per message: the search runs over every stored message, so no allocation per row.
  const view: SearchableMessage = {
    body: '', senderName: '', senderKind: '', patientId: null, patientName: null, patientMrn: null,
    patientPhone: null, conversationPhone: null, unread: false, deliveryStatus: null,
  };
  return (m) => {
    if (m.orgId !== orgId) return false;
    const conversation = conversations.get(m.conversationId);
    if (!conversation || conversation.type !== 'patient') return false;
    if (!predicate) return true;
    const patient = m.patientId ? patients.get(m.patientId) : undefined;
    view.body = m.body;
    view.senderName = m.senderName;
    view.senderKind = m.senderKind;
    view.patientId = m.patientId;
    view.patientName = patient ? patientName(patient) : null;
    view.patientMrn = patient?.mrn ?? null;
    view.patientPhone = patient?.phone ?? null;
    // The conversation's clinic number: a secure message itself carries none (§2.2).
    const numberId = conversation.phoneNumberId ?? m.phoneNumberId;
    view.conversationPhone = numberId ? (phoneNumbers.get(numberId)?.number ?? null) : null;
    view.unread = isUnread(conversation, m);
    view.deliveryStatus = m.delivery?.status ?? null;
    return predicate(view);
  };
}

/** The patient conversations (ids) a query reads from, or null for "all of the organization's". */
export function conversationScope(sb: SandboxContext, query: Pick<MessageQuery, 'orgId' | 'patientId' | 'conversationId'>): string[] | null {
  const visible = (id: string) => {
    const c = sb.db.conversations.get(id);
    return c && c.orgId === query.orgId && c.type === 'patient' && (!query.patientId || c.patientId === query.patientId);
  };
  if (query.conversationId) return visible(query.conversationId) ? [query.conversationId] : [];
  if (query.patientId) {
    return sb.db.conversations.where('patient_id = ?', [query.patientId]).filter((c) => visible(c.id)).map((c) => c.id);
  }
  return null;
}
