/**
 * The `/me` family (api-spec §4.3, §4.8): the connected admin's profile,
 * every message in their conversations, and sending into one. OAuth only: an
 * API key gets 403 oauth_required from apiRoute.
 *
 * Choices (docs/authentication.md): /me/messages lists oldest first (§4.12's
 * default); with group_by=conversation the most recently active chat comes
 * first and each chat's messages read oldest first. Group order is frozen
 * when the first page is served (the cursor remembers it), so a chat that
 * becomes active mid-listing neither jumps pages nor repeats messages; its
 * new messages show up in the next listing. Sending needs messages.write.
 */
import type { FastifyInstance } from 'fastify';
import type { Profile } from '../../contract/api.js';
import { LIMITS } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import { apiRoute, type ApiRequest } from '../http/route.js';
import { FieldErrors, problems } from '../problem.js';
import { pageOf, readSignedCursor } from '../domain/paging.js';
import { accessTokens } from '../domain/access-tokens.js';
import { grantOfAccessToken } from '../domain/oauth-tokens.js';
import { messageView } from '../domain/views.js';
import { isVisibleToAdmin, sendTeamChatMessage } from '../domain/team-chats.js';
import { sendPatientMessage, senderFromPrincipal } from '../domain/patient-messages.js';
import { choiceParam, parseTimeParam } from './message-query-params.js';
import { bodyLength } from '../validation/formats.js';
import type { MessageRecord } from '../domain/records.js';
import { fieldsOf } from '../http/body-shape.js';

export function registerMeRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'GET',
    url: '/me',
    scope: 'messages.read',
    credentials: ['oauth'],
    handler: (req) => ({ status: 200, body: profileOf(sb, req) }),
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/me/messages',
    scope: 'messages.read',
    credentials: ['oauth'],
    // §4.8 shows after, group_by and paging; "other query parameters: not shown".
    query: ['after', 'group_by'],
    paged: true,
    handler: (req) => ({ status: 200, body: listMyMessages(sb, req) }),
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/me/messages/:messageId',
    scope: 'messages.read',
    credentials: ['oauth'],
    handler: (req) => {
      const message = sb.db.messages.get(req.params.messageId!);
      const conversation = message ? sb.db.conversations.get(message.conversationId) : undefined;
      if (!message || !conversation || !isVisibleToAdmin(req.principal, conversation)) throw problems.notFound('Message');
      return { status: 200, body: messageView(sb, message) };
    },
  });

  apiRoute(app, sb, {
    method: 'POST',
    url: '/me/conversations/:conversationId/messages',
    body: fieldsOf('body'),
    scope: 'messages.write',
    credentials: ['oauth'],
    idempotent: true,
    handler: (req) => {
      const conversation = sb.db.conversations.get(req.params.conversationId!);
      if (!conversation || !isVisibleToAdmin(req.principal, conversation)) throw problems.notFound('Conversation');
      const body = validBody(req.body);
      if (conversation.type === 'direct') {
        const record = sendTeamChatMessage(sb, req.principal, conversation, body);
        return { status: 201, body: messageView(sb, record) };
      }
      // A patient conversation: delivered like POST /patient-messages, on the conversation's number and channel.
      const number = conversation.phoneNumberId ? sb.db.phoneNumbers.get(conversation.phoneNumberId) : undefined;
      const { response } = sendPatientMessage(sb, senderFromPrincipal(req.principal), {
        to: { patient_id: conversation.patientId },
        body,
        channel: conversation.channel ?? 'secure',
        from: number?.number,
      });
      return { status: 201, body: response.message };
    },
  });
}

function profileOf(sb: SandboxContext, req: ApiRequest): Profile {
  const p = req.principal;
  const user = p.userId ? sb.db.users.get(p.userId) : undefined;
  const org = sb.db.orgs.get(p.orgId);
  if (!user || !org) throw problems.notFound('User');
  const token = accessTokens(sb.store).get(p.id);
  // The grant's end (its refresh token's last day); a token without a grant ends with itself.
  const expiresMs = grantOfAccessToken(sb, p.id)?.expiresMs ?? token?.expiresMs ?? p.expiresMs ?? sb.clock.now();
  return {
    user: { id: user.id, name: user.name, role: user.role },
    organization: { id: org.id, name: org.name },
    app: { client_id: p.app?.clientId ?? token?.clientId ?? '', name: p.app?.name ?? '' },
    scopes: [...p.scopes],
    expires_at: sb.clock.iso(expiresMs),
  };
}

function validBody(raw: unknown): string {
  const errors = new FieldErrors();
  const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>).body : undefined;
  if (body === undefined || body === null) errors.add('/body', 'required', 'body is required.');
  else if (typeof body !== 'string') errors.add('/body', 'invalid_type', 'body must be a string.');
  else if (!body.trim()) errors.add('/body', 'required', 'body must not be empty.');
  else if (bodyLength(body) > LIMITS.bodyMaxChars) {
    errors.add('/body', 'too_long', `body is ${bodyLength(body)} characters; the limit is ${LIMITS.bodyMaxChars}.`);
  }
  errors.throwIfAny();
  return body as string;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** A message's place in time as a string that sorts like (createdMs, id): creation time, id as tiebreaker (§4.12). */
const position = (m: MessageRecord) => `${pad(m.createdMs, 15)}:${m.id}`;
/** The same place, but sorting latest first (each hex digit of the id complemented). */
const reversePosition = (m: MessageRecord) => `${pad(1e15 - m.createdMs, 15)}:${complement(m.id)}`;
const complement = (id: string) => id.replace(/[0-9a-f]/g, (d) => (15 - parseInt(d, 16)).toString(16));

function listMyMessages(sb: SandboxContext, req: ApiRequest) {
  const p = req.principal;
  const org = sb.db.orgs.get(p.orgId);
  const rawAfter = req.query.after;
  const afterMs = rawAfter ? parseTimeParam('after', rawAfter, org?.timeZone ?? 'UTC') : -Infinity;
  const groupBy = choiceParam(req, 'group_by', ['message', 'conversation'] as const, 'message');
  const visible = new Set<string>();
  for (const c of sb.db.conversations.values()) if (isVisibleToAdmin(p, c)) visible.add(c.id);
  const base = `me-messages:${p.userId}:${rawAfter ?? ''}:${groupBy}`;

  // The visible conversations' messages in range, from the (conversation_id, created_ms) index.
  const inRange = (maxSeq: number) =>
    sb.db.messages.where(
      'conversation_id IN (SELECT value FROM json_each(?)) AND created_ms >= ? AND seq <= ?',
      [JSON.stringify([...visible]), Number.isFinite(afterMs) ? afterMs : Number.MIN_SAFE_INTEGER, maxSeq],
    );
  if (groupBy === 'message') {
    const rows = inRange(Number.MAX_SAFE_INTEGER);
    const keyed = rows.map((m) => ({ id: m.id, key: position(m), m })).sort(byKey);
    return pageOf(sb, req.page, base, keyed, (r) => r.key, (r) => messageView(sb, r.m));
  }

  const snapshot = snapshotFromCursor(sb, req.page.after, base) ?? sb.store.nextSeq();
  const rows = inRange(snapshot);
  const latest = new Map<string, MessageRecord>();
  for (const m of rows) {
    const current = latest.get(m.conversationId);
    if (!current || position(m) > position(current)) latest.set(m.conversationId, m);
  }
  const keyed = rows
    .map((m) => ({ id: m.id, key: `${reversePosition(latest.get(m.conversationId)!)}|${m.conversationId}|${position(m)}`, m }))
    .sort(byKey);
  return pageOf(sb, req.page, `${base}:snapshot=${snapshot}`, keyed, (r) => r.key, (r) => messageView(sb, r.m));
}

function byKey(a: { key: string; id: string }, b: { key: string; id: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The snapshot a group_by=conversation cursor was made at; pageOf then checks the rest of the cursor. */
function snapshotFromCursor(sb: SandboxContext, raw: string | null, base: string): number | null {
  if (!raw) return null;
  try {
    const list = readSignedCursor(sb, raw)?.list;
    const match = typeof list === 'string' && list.startsWith(`${base}:snapshot=`) ? /:snapshot=(\d+)$/.exec(list) : null;
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
