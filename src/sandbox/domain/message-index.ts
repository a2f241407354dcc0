/**
 * Sorted views of the messages table, so a page of GET /patient-messages
 * costs a binary search plus the records it serves, not a scan and sort of
 * every stored message (which made `--all` over 200,000 messages quadratic).
 *
 * Messages are ordered by their position: (createdMs, seq). `seq` comes from
 * the store's counter, so two messages created in the same millisecond still
 * have a strict order, and a message created later always sorts later even
 * if a random id would sort it earlier. Positions never change, which is what
 * makes cursors (a position) safe while new messages arrive.
 *
 * The index is rebuilt lazily: any store change (or a different row count,
 * for writers that forget `store.changed()`) marks it stale, and the next
 * read rebuilds it in one pass. Messages arrive in creation order, so the
 * rebuild is usually a copy without a sort.
 */
import type { SandboxContext } from '../context.js';
import type { MessageRecord } from './records.js';

/** A message's place in time order. */
export interface Position {
  ms: number;
  seq: number;
}

export interface MessageIndex {
  /** Every message (all organizations, all conversation types), by position. */
  timeline: MessageRecord[];
  /** Each conversation's messages, by position. */
  byConversation: Map<string, MessageRecord[]>;
  /** Highest seq indexed: "everything that existed at this moment" for snapshots. */
  maxSeq: number;
}

interface IndexState {
  index: MessageIndex | null;
  rows: number;
}

const states = new WeakMap<SandboxContext, IndexState>();

export function messageIndex(sb: SandboxContext): MessageIndex {
  let state = states.get(sb);
  if (!state) {
    const fresh: IndexState = { index: null, rows: -1 };
    sb.store.onChange(() => {
      fresh.index = null;
    });
    states.set(sb, fresh);
    state = fresh;
  }
  if (!state.index || state.rows !== sb.db.messages.size) {
    state.index = build(sb);
    state.rows = sb.db.messages.size;
  }
  return state.index;
}

function build(sb: SandboxContext): MessageIndex {
  const timeline: MessageRecord[] = new Array(sb.db.messages.size);
  let i = 0;
  let sorted = true;
  let maxSeq = 0;
  let previous: MessageRecord | undefined;
  for (const m of sb.db.messages.values()) {
    timeline[i++] = m;
    if (previous && comparePositions(previous, m) > 0) sorted = false;
    if (m.seq > maxSeq) maxSeq = m.seq;
    previous = m;
  }
  // Only after a restore or a clock step backwards are messages out of order.
  if (!sorted) timeline.sort(comparePositions);
  const byConversation = new Map<string, MessageRecord[]>();
  for (const m of timeline) {
    let list = byConversation.get(m.conversationId);
    if (!list) byConversation.set(m.conversationId, (list = []));
    list.push(m);
  }
  return { timeline, byConversation, maxSeq };
}

export function comparePositions(a: { createdMs: number; seq: number }, b: { createdMs: number; seq: number }): number {
  return a.createdMs - b.createdMs || a.seq - b.seq;
}

export function positionOf(m: MessageRecord): Position {
  return { ms: m.createdMs, seq: m.seq };
}

/** Index of the first message at or after `p` (messages.length if none). */
export function firstAtOrAfter(messages: MessageRecord[], p: Position): number {
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = messages[mid]!;
    if (m.createdMs < p.ms || (m.createdMs === p.ms && m.seq < p.seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A half-open window of positions [from, to); either end may be open. Time
 * bounds are positions with seq -Infinity (every message of that millisecond
 * is at or after it); a cursor's "strictly after p" is { ms, seq: p.seq + 1 }.
 */
export interface Window {
  from: Position | null;
  to: Position | null;
}

export function narrow(window: Window, extra: Window): Window {
  const later = (a: Position | null, b: Position | null) => (!a ? b : !b ? a : compareKeys(a, b) >= 0 ? a : b);
  const earlier = (a: Position | null, b: Position | null) => (!a ? b : !b ? a : compareKeys(a, b) <= 0 ? a : b);
  return { from: later(window.from, extra.from), to: earlier(window.to, extra.to) };
}

export function compareKeys(a: Position, b: Position): number {
  // Not a subtraction of seqs: time bounds use -Infinity, and -Infinity - -Infinity is NaN.
  return a.ms - b.ms || (a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1);
}

/** Start and end indexes of `window` in a sorted message list. */
export function slice(messages: MessageRecord[], window: Window): [number, number] {
  const start = window.from ? firstAtOrAfter(messages, window.from) : 0;
  const end = window.to ? firstAtOrAfter(messages, window.to) : messages.length;
  return [start, Math.max(start, end)];
}

/**
 * Walks several sorted lists as one, within `window`, oldest first (`asc`)
 * or newest first (`desc`). Lazy, so a page stops reading once it is full.
 * Used for a patient's conversations (a handful of lists).
 */
export function* walk(lists: MessageRecord[][], window: Window, order: 'asc' | 'desc'): Generator<MessageRecord> {
  const bounds = lists.map((list) => slice(list, window));
  const heads = bounds.map(([start, end]) => (order === 'asc' ? start : end - 1));
  const sign = order === 'asc' ? 1 : -1;
  for (;;) {
    let best = -1;
    let bestMessage: MessageRecord | undefined;
    for (let i = 0; i < lists.length; i++) {
      const [start, end] = bounds[i]!;
      const h = heads[i]!;
      if (h < start || h >= end) continue;
      const m = lists[i]![h]!;
      if (!bestMessage || comparePositions(m, bestMessage) * sign < 0) {
        best = i;
        bestMessage = m;
      }
    }
    if (!bestMessage) return;
    heads[best] = heads[best]! + sign;
    yield bestMessage;
  }
}
