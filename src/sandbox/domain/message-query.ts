/**
 * What one GET /patient-messages (api-spec §4.4) covers, from its parameters
 * as typed values (routes/message-query-params.ts reads them from the query
 * string): the time window, order, grouping, patient or conversation, the
 * compiled `q`, and the API-key range rule. message-pages.ts cuts it into pages.
 */
import { createHash } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import { ProblemError } from '../problem.js';
import { compileQuery, parseQuery, QueryParseError, type MessagePredicate, type SearchableMessage } from '../search/index.js';
import { isUnread, patientName } from './views.js';
import type { MessageRecord } from './records.js';
import type { Window } from './message-index.js';
import type { Principal } from './principal.js';

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


/** The parameters of one GET /patient-messages, as the HTTP layer read them (routes/message-query-params.ts). */
export interface MessageQueryInput {
  afterMs: number | null;
  beforeMs: number | null;
  order: Order;
  groupBy: GroupBy;
  /** Lower-case UUIDs. */
  patientId: string | null;
  conversationId: string | null;
  /** The search (docs/search-language.md); '' for none. */
  q: string;
}

/** What a request covers: its `q` compiled, the API-key range rule (§4.4) applied, the list named for cursors. */
export function messageQuery(sb: SandboxContext, principal: Principal, input: MessageQueryInput): MessageQuery {
  const orgId = principal.orgId;
  const { afterMs, beforeMs, order, groupBy, patientId, conversationId, q } = input;
  let predicate: MessagePredicate | null = null;
  try {
    const ast = parseQuery(q);
    if (ast.type !== 'all') predicate = compileQuery(ast);
  } catch (err) {
    if (err instanceof QueryParseError) throw new ProblemError(400, 'invalid_query', err.message, [], { position: err.position });
    throw err;
  }

  if (principal.kind === 'api_key' && afterMs === null && !patientId && !conversationId) {
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
