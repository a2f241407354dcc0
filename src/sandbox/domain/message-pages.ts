/**
 * Pages of GET /patient-messages. A cursor is a position, never an offset:
 *
 * - group_by=message: the (createdMs, id) of the last message served. The
 *   next page starts strictly after it in the list's order. A message created
 *   later always has a later position, so during a newest-first traversal it
 *   falls before the cursor (not served, never duplicated), and during an
 *   oldest-first traversal it turns up at the end. Nothing is skipped or
 *   served twice, however many messages arrive.
 *
 * - group_by=conversation: conversations are ordered by their latest
 *   in-range message, and a new message would move its conversation. So the
 *   first page takes a snapshot (the highest message seq then) and every
 *   later page of the traversal reads only messages up to it. The grouping
 *   and order are then computed over a set that cannot change, and the cursor
 *   (conversation, its order key, last message served, snapshot) always means
 *   the same place. Messages newer than the snapshot belong to the next
 *   traversal. The order key ignores `q` on purpose: a filter like
 *   `is:unread` can change its answer mid-traversal, a position cannot.
 */
import type { SandboxContext } from '../context.js';
import { decodeCursor, encodeCursor, type PageRequest } from './paging.js';
import { problems } from '../problem.js';
import type { Message } from '../../contract/api.js';
import type { MessageRecord } from './records.js';
import { messageView } from './views.js';
import { after, compareKeys, latestPerConversation, narrow, walkMessages, type Position } from './message-index.js';
import { conversationScope, type MessageQuery } from './message-query.js';
import { firstAfter, rankingOf } from './ranking-cache.js';

interface MessageCursor {
  /** Last message served. */
  at: Position;
  /** group_by=conversation only. */
  conversation?: { id: string; key: Position; snapshot: number };
}

interface Rows {
  rows: MessageRecord[];
  hasMore: boolean;
  /** Cursor state after the last row. */
  next: ((last: MessageRecord) => MessageCursor) | null;
}

export function messagesPage(sb: SandboxContext, page: PageRequest, query: MessageQuery) {
  const limit = page.limit;
  const cursor = page.after ? readCursor(decodeCursor(sb, page.after, query.list)) : null;
  const result = query.groupBy === 'message'
    ? pageByMessage(sb, query, cursor, limit)
    : pageByConversation(sb, query, cursor, limit);
  const last = result.rows[result.rows.length - 1];
  const data: Message[] = result.rows.map((m) => messageView(sb, m));
  return {
    data,
    pagination: {
      next_cursor: result.hasMore && last && result.next
        ? encodeCursor(sb, { list: query.list, key: last.createdMs, id: last.id, extra: result.next(last) })
        : null,
      has_more: result.hasMore,
    },
  };
}

export function readCursor(decoded: { key: number | string; id: string; extra?: unknown }): MessageCursor {
  const extra = decoded.extra as Partial<MessageCursor> | undefined;
  const isPosition = (p: unknown): p is Position =>
    !!p && typeof p === 'object' && Number.isFinite((p as Position).ms) && typeof (p as Position).id === 'string';
  if (!extra || !isPosition(extra.at)) throw problems.invalidRequest('page[after] is not a valid cursor.');
  if (extra.conversation !== undefined) {
    const c = extra.conversation;
    if (typeof c.id !== 'string' || !isPosition(c.key) || !Number.isInteger(c.snapshot)) {
      throw problems.invalidRequest('page[after] is not a valid cursor.');
    }
  }
  return extra as MessageCursor;
}

function pageByMessage(sb: SandboxContext, query: MessageQuery, cursor: MessageCursor | null, limit: number): Rows {
  const window = cursor ? narrow(query.window, after(cursor.at, query.order)) : query.window;
  const rows: MessageRecord[] = [];
  let hasMore = false;
  for (const m of walkMessages(sb, { orgId: query.orgId, conversationIds: conversationScope(sb, query) }, window, query.order, limit + 1)) {
    if (!query.matches(m)) continue;
    if (rows.length === limit) {
      hasMore = true;
      break;
    }
    rows.push(m);
  }
  return { rows, hasMore, next: (last) => ({ at: { ms: last.createdMs, id: last.id } }) };
}

interface Group {
  id: string;
  /** Latest in-range message of the snapshot: the conversation's place in the order. */
  key: Position;
}

function pageByConversation(sb: SandboxContext, query: MessageQuery, cursor: MessageCursor | null, limit: number): Rows {
  const snapshot = cursor?.conversation?.snapshot ?? sb.store.currentSeq();
  const groups = conversationGroups(sb, query, snapshot);
  const sign = query.order === 'asc' ? 1 : -1;

  let start = 0;
  let resumeWithin: ReturnType<typeof after> | null = null;
  if (cursor?.conversation) {
    const { id, key } = cursor.conversation;
    // The groups are in (key, id) order: find the cursor's conversation, or (if it is gone,
    // e.g. deleted) the next one in order, by binary search rather than a walk.
    const order = (g: Group) => (compareKeys(g.key, key) || (g.id < id ? -1 : g.id > id ? 1 : 0)) * sign;
    const at = firstAfter(groups, (g) => order(g) >= 0);
    if (at < groups.length && groups[at]!.id === id && compareKeys(groups[at]!.key, key) === 0) {
      start = at;
      resumeWithin = after(cursor.at, query.order);
    } else {
      start = at;
    }
  }

  const rows: MessageRecord[] = [];
  let hasMore = false;
  let current: Group | undefined;
  scan: for (let g = start; g < groups.length; g++) {
    const group = groups[g]!;
    const window = g === start && resumeWithin ? narrow(query.window, resumeWithin) : query.window;
    const scope = { orgId: query.orgId, conversationIds: [group.id], maxSeq: snapshot };
    for (const m of walkMessages(sb, scope, window, query.order)) {
      if (!query.matches(m)) continue;
      if (rows.length === limit) {
        hasMore = true;
        break scan;
      }
      rows.push(m);
      current = group;
    }
  }
  return {
    rows,
    hasMore,
    next: (last) => ({
      at: { ms: last.createdMs, id: last.id },
      conversation: { id: current!.id, key: current!.key, snapshot },
    }),
  };
}

/** The query's patient conversations that have messages in range (as of `snapshot`), in the list's order. */
function conversationGroups(sb: SandboxContext, query: MessageQuery, snapshot: number): Group[] {
  return rankingOf(sb, `patient-messages:${query.list}:${snapshot}`, () => rankGroups(sb, query, snapshot));
}

function rankGroups(sb: SandboxContext, query: MessageQuery, snapshot: number): Group[] {
  const latest = latestPerConversation(sb, { orgId: query.orgId, conversationIds: conversationScope(sb, query), maxSeq: snapshot }, query.window);
  const groups: Group[] = [];
  for (const [id, key] of latest) {
    if (sb.db.conversations.get(id)?.type === 'patient') groups.push({ id, key });
  }
  const sign = query.order === 'asc' ? 1 : -1;
  groups.sort((a, b) => (compareKeys(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * sign);
  return groups;
}
