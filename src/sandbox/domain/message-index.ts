/**
 * Messages in time order, read from SQL indexes (store/schema.ts), so a page
 * of GET /patient-messages costs an index range plus the records it serves,
 * never a scan and sort of every stored message.
 *
 * A message's position is (createdMs, id): creation time with the id as
 * tiebreaker (api-spec §4.12). Positions never change, which is what makes
 * cursors (a position) safe while new messages arrive. `seq` (the store's
 * counter) still marks "everything that existed at this moment" for
 * snapshots.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { SandboxContext } from '../context.js';
import type { MessageRecord } from './records.js';

/** A message's place in time order. */
export interface Position {
  ms: number;
  id: string;
}

/**
 * A half-open window of positions [from, to); either end may be open. Time
 * bounds are positions with id '' (every message of that millisecond is at
 * or after it).
 */
export interface Window {
  from: Position | null;
  to: Position | null;
}

export function comparePositions(a: { createdMs: number; id: string }, b: { createdMs: number; id: string }): number {
  return a.createdMs - b.createdMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function positionOf(m: MessageRecord): Position {
  return { ms: m.createdMs, id: m.id };
}

export function compareKeys(a: Position, b: Position): number {
  return a.ms - b.ms || (a.id === b.id ? 0 : a.id < b.id ? -1 : 1);
}

export function narrow(window: Window, extra: Window): Window {
  const later = (a: Position | null, b: Position | null) => (!a ? b : !b ? a : compareKeys(a, b) >= 0 ? a : b);
  const earlier = (a: Position | null, b: Position | null) => (!a ? b : !b ? a : compareKeys(a, b) <= 0 ? a : b);
  return { from: later(window.from, extra.from), to: earlier(window.to, extra.to) };
}

/** "Strictly after p" in the given order, as a window. */
export function after(p: Position, order: 'asc' | 'desc'): Window {
  // '\u0000' appended makes the smallest id greater than p.id: (ms, id+'\0') is the next position.
  return order === 'asc' ? { from: { ms: p.ms, id: `${p.id}\u0000` }, to: null } : { from: null, to: p };
}

export interface MessageScope {
  orgId: string;
  /** null: every conversation of the organization. */
  conversationIds: string[] | null;
  /** Only messages with seq at most this (a snapshot). */
  maxSeq?: number;
}

/** SQL condition and parameters for a scope and window. */
export function scopeCondition(scope: MessageScope, window: Window): { sql: string; params: SQLInputValue[] } {
  const parts: string[] = [];
  const params: SQLInputValue[] = [];
  if (scope.conversationIds) {
    parts.push(`conversation_id IN (${scope.conversationIds.map(() => '?').join(', ')})`);
    params.push(...scope.conversationIds);
  }
  parts.push('org_id = ?');
  params.push(scope.orgId);
  if (window.from) {
    parts.push('(created_ms, id) >= (?, ?)');
    params.push(window.from.ms, window.from.id);
  }
  if (window.to) {
    parts.push('(created_ms, id) < (?, ?)');
    params.push(window.to.ms, window.to.id);
  }
  if (scope.maxSeq !== undefined) {
    parts.push('seq <= ?');
    params.push(scope.maxSeq);
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * Messages of a scope within a window, oldest first (`asc`) or newest first,
 * read in growing chunks (each one index range from where the last ended),
 * so a page that stops early reads little, and a filter that skips many
 * rows still reads them in bulk.
 */
export function* walkMessages(
  sb: SandboxContext,
  scope: MessageScope,
  window: Window,
  order: 'asc' | 'desc',
  /** Rows to read first: a page's size plus one, when every row is likely to be served. */
  firstChunk = 64,
): Generator<MessageRecord, undefined, undefined> {
  if (scope.conversationIds?.length === 0) return undefined;
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  let chunk = firstChunk;
  let rest = window;
  for (;;) {
    const { sql, params } = scopeCondition(scope, rest);
    const rows = sb.db.messages.where(sql, params, `created_ms ${dir}, id ${dir}`, chunk);
    yield* rows;
    if (rows.length < chunk) return undefined;
    const last = rows[rows.length - 1]!;
    rest = narrow(window, after({ ms: last.createdMs, id: last.id }, order));
    chunk = Math.min(chunk * 2, 2048);
  }
}

/** Each conversation's latest message position within a scope and window (conversations with none are absent). */
export function latestPerConversation(sb: SandboxContext, scope: MessageScope, window: Window): Map<string, Position> {
  const latest = new Map<string, Position>();
  if (scope.conversationIds?.length === 0) return latest;
  const { sql, params } = scopeCondition(scope, window);
  const rows = sb.store
    .prepare(
      `SELECT conversation_id AS c, created_ms AS ms, id FROM (
         SELECT conversation_id, created_ms, id,
                row_number() OVER (PARTITION BY conversation_id ORDER BY created_ms DESC, id DESC) AS n
         FROM messages WHERE ${sql}
       ) WHERE n = 1`,
    )
    .all(...params) as unknown as { c: string; ms: number; id: string }[];
  for (const r of rows) latest.set(r.c, { ms: Number(r.ms), id: r.id });
  return latest;
}

/** A conversation's newest message (optionally as of a snapshot seq). */
export function latestMessage(sb: SandboxContext, conversationId: string, maxSeq?: number): MessageRecord | undefined {
  const [m] = sb.db.messages.where(
    maxSeq === undefined ? 'conversation_id = ?' : 'conversation_id = ? AND seq <= ?',
    maxSeq === undefined ? [conversationId] : [conversationId, maxSeq],
    'created_ms DESC, id DESC',
    1,
  );
  return m;
}

/** Patient (inbound) messages of a conversation created after `afterMs`. */
export function countInbound(sb: SandboxContext, conversationId: string, afterMs: number): number {
  return sb.db.messages.count("conversation_id = ? AND created_ms > ? AND sender_kind = 'patient'", [conversationId, afterMs]);
}
