/**
 * GET /v1/patient-conversations and /v1/patient-conversations/{id} (§4.5).
 * The spec shows no list parameters; the sandbox's choice (docs/messages.md):
 * patient_id, phone_number (a clinic number, E.164), channel, unread=true|false,
 * order=desc|asc by latest activity, page[limit], page[after].
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute, type ApiRequest } from '../http/route.js';
import { decodeCursor, encodeCursor } from '../domain/paging.js';
import { refuseEmptyFilters } from './empty-filter.js';
import { problems } from '../problem.js';
import { createHash } from 'node:crypto';
import {
  conversationDetail,
  conversationListRow,
  conversationPage,
  takeSnapshot,
  type ConversationCursor,
  type ConversationFilter,
} from '../domain/conversation-pages.js';
import { looksLikeUuid } from '../validation/formats.js';

const E164 = /^\+[1-9]\d{6,14}$/;

const LIST_PARAMETERS = ['patient_id', 'phone_number', 'channel', 'unread', 'order'] as const;

const badParam = problems.badParameter;

/** Undefined when the number is not one of the organization's: the list is then empty. */
function readFilter(sb: SandboxContext, req: ApiRequest): ConversationFilter | undefined {
  refuseEmptyFilters(req, ['patient_id', 'phone_number', 'channel', 'unread']);
  const orgId = req.principal.orgId;
  const patientId = req.query.patient_id || null;
  if (patientId && !looksLikeUuid(patientId)) throw badParam('patient_id', `patient_id must be a UUID (got "${patientId}").`);
  const phone = req.query.phone_number || null;
  if (phone && !E164.test(phone)) throw badParam('phone_number', `phone_number must be an E.164 number such as +15555550100 (got "${phone}").`);
  const channel = req.query.channel || null;
  if (channel && channel !== 'secure' && channel !== 'sms') throw badParam('channel', `channel must be secure or sms (got "${channel}").`);
  const unread = req.query.unread || null;
  if (unread && unread !== 'true' && unread !== 'false') throw badParam('unread', `unread must be true or false (got "${unread}").`);
  const order = req.query.order || 'desc';
  if (order !== 'desc' && order !== 'asc') throw badParam('order', `order must be desc or asc (got "${order}").`);
  let phoneNumberId: string | null = null;
  if (phone) {
    const number = sb.db.phoneNumbers.find((n) => n.orgId === orgId && n.number === phone);
    if (!number) return undefined;
    phoneNumberId = number.id;
  }
  return {
    orgId,
    patientId: patientId?.toLowerCase() ?? null,
    phoneNumberId,
    channel: channel as ConversationFilter['channel'],
    unread: unread === null ? null : unread === 'true',
    order,
  };
}

function readCursor(extra: unknown, id: string): ConversationCursor {
  const e = extra as Partial<ConversationCursor> | undefined;
  const ok = e && e.key && Number.isFinite(e.key.ms) && typeof e.key.id === 'string'
    && e.snapshot && Number.isInteger(e.snapshot.seq) && Number.isFinite(e.snapshot.ms);
  if (!ok) throw problems.invalidRequest('page[after] is not a valid cursor.');
  return { key: e.key!, snapshot: e.snapshot!, id };
}

export function registerPatientConversationRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'GET',
    url: '/patient-conversations',
    scope: 'messages.read',
    query: LIST_PARAMETERS,
    paged: true,
    handler: (req) => {
      const limit = req.page.limit;
      const filter = readFilter(sb, req);
      const list = 'patient-conversations:' + createHash('sha256')
        .update(JSON.stringify([req.principal.orgId, ...LIST_PARAMETERS.map((p) => req.query[p] ?? null)]))
        .digest('base64url')
        .slice(0, 16);
      const decoded = req.page.after ? decodeCursor(sb, req.page.after, list) : null;
      const cursor = decoded ? readCursor(decoded.extra, decoded.id) : null;
      if (!filter) return { status: 200, body: { data: [], pagination: { next_cursor: null, has_more: false } } };
      const snapshot = cursor?.snapshot ?? takeSnapshot(sb);
      const page = conversationPage(sb, filter, snapshot, cursor, limit);
      const last = page.rows[page.rows.length - 1];
      return {
        status: 200,
        body: {
          data: page.rows.map((r) => conversationListRow(sb, r.conversation)),
          pagination: {
            next_cursor: page.hasMore && last
              ? encodeCursor(sb, { list, key: last.key.ms, id: last.conversation.id, extra: { key: last.key, snapshot } })
              : null,
            has_more: page.hasMore,
          },
        },
      };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/patient-conversations/:conversationId',
    scope: 'messages.read',
    handler: (req) => {
      const c = sb.db.conversations.get(req.params.conversationId!);
      if (!c || c.orgId !== req.principal.orgId || c.type !== 'patient') throw problems.notFound('Patient conversation');
      return { status: 200, body: conversationDetail(sb, c) };
    },
  });
}
