/**
 * Patient conversations as the API shows them (§2.4) and pages of
 * GET /patient-conversations, most recently active first by default.
 *
 * Activity order has the same trap as group_by=conversation: a new message
 * moves its conversation to the top, which would skip or repeat it during a
 * traversal. So the first page takes a snapshot (the highest store seq and
 * the time) and the whole traversal orders conversations by their latest
 * message as of that snapshot. What each row shows (last_message_at,
 * latest_message, unread_count) is current; only the order is frozen.
 */
import type { SandboxContext } from '../context.js';
import type { PatientConversation } from '../../contract/api.js';
import type { ConversationRecord } from './records.js';
import { messageView, patientConversationView } from './views.js';
import { compareKeys, countInbound, latestMessage, type Position } from './message-index.js';
import { firstAfter, rankingOf } from './ranking-cache.js';

export interface ConversationFilter {
  orgId: string;
  patientId: string | null;
  phoneNumberId: string | null;
  channel: 'secure' | 'sms' | null;
  unread: boolean | null;
  order: 'asc' | 'desc';
}

export interface Snapshot {
  seq: number;
  ms: number;
}

export interface ConversationCursor {
  key: Position;
  id: string;
  snapshot: Snapshot;
}

/** Inbound (patient) messages newer than seen_at: what staff have not read yet. */
export function unreadCount(sb: SandboxContext, c: ConversationRecord): number {
  return countInbound(sb, c.id, c.seen_at ? Date.parse(c.seen_at) : Number.MIN_SAFE_INTEGER);
}

/** GET /patient-conversations/{id}: messages_in_range and latest_message are null, as in the spec's retrieve sample. */
export function conversationDetail(sb: SandboxContext, c: ConversationRecord): PatientConversation {
  return patientConversationView(sb, c, { unreadCount: unreadCount(sb, c) });
}

/** A list row: the retrieve shape plus latest_message, the conversation's newest message now. */
export function conversationListRow(sb: SandboxContext, c: ConversationRecord): PatientConversation {
  const latest = latestMessage(sb, c.id);
  return patientConversationView(sb, c, {
    unreadCount: unreadCount(sb, c),
    latest: latest ? messageView(sb, latest) : null,
  });
}

export function takeSnapshot(sb: SandboxContext): Snapshot {
  return { seq: sb.store.currentSeq(), ms: sb.clock.now() };
}

interface Ranked {
  conversation: ConversationRecord;
  key: Position;
}

/** One page of conversations after `cursor` (or from the start), plus whether more follow. */
export function conversationPage(
  sb: SandboxContext,
  filter: ConversationFilter,
  snapshot: Snapshot,
  cursor: ConversationCursor | null,
  limit: number,
): { rows: Ranked[]; hasMore: boolean } {
  const sign = filter.order === 'asc' ? 1 : -1;
  const compare = (a: RankedId, b: RankedId) => (compareKeys(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * sign;
  const list = `patient-conversations:${filter.orgId}:${filter.patientId}:${filter.phoneNumberId}:${filter.channel}:${filter.order}`;
  const ranked = rankingOf(sb, `${list}:${snapshot.seq}:${snapshot.ms}`, () => rank(sb, filter, snapshot).sort(compare));

  const rows: Ranked[] = [];
  let hasMore = false;
  const start = cursor ? firstAfter(ranked, (r) => compare(r, cursor) > 0) : 0;
  for (let i = start; i < ranked.length; i++) {
    const { id, key } = ranked[i]!;
    // Read now: what a row shows is current, only the order is the snapshot's.
    const conversation = sb.db.conversations.get(id);
    if (!conversation) continue;
    // The unread filter is applied last: it is the only costly one.
    if (filter.unread !== null && unreadCount(sb, conversation) > 0 !== filter.unread) continue;
    if (rows.length === limit) {
      hasMore = true;
      break;
    }
    rows.push({ conversation, key });
  }
  return { rows, hasMore };
}

interface RankedId {
  id: string;
  key: Position;
}

/** The filter's conversations with their place in activity order as of the snapshot (unsorted). */
function rank(sb: SandboxContext, filter: ConversationFilter, snapshot: Snapshot): RankedId[] {
  const ranked: RankedId[] = [];
  for (const c of sb.db.conversations.query("org_id = ? AND type = 'patient'", [filter.orgId])) {
    if (filter.patientId && c.patientId !== filter.patientId) continue;
    if (filter.phoneNumberId && c.phoneNumberId !== filter.phoneNumberId) continue;
    if (filter.channel && c.channel !== filter.channel) continue;
    const key = activityKey(sb, c, snapshot);
    if (key) ranked.push({ id: c.id, key });
  }
  return ranked;
}

/**
 * Where a conversation sits in activity order as of the snapshot: its latest
 * message then, or its creation for one without messages. Conversations
 * started after the snapshot are left out (they belong to the next traversal).
 */
function activityKey(sb: SandboxContext, c: ConversationRecord, snapshot: Snapshot): Position | null {
  const m = latestMessage(sb, c.id, snapshot.seq);
  if (m) return { ms: m.createdMs, id: m.id };
  const created = Date.parse(c.created_at);
  if (created <= snapshot.ms && !latestMessage(sb, c.id)) return { ms: created, id: '' };
  return null;
}
