/**
 * Who is in a conversation (docs/conversation-scoped.md "Participants").
 *
 * Team chats (`direct`) list their members in ConversationRecord.participantIds.
 * A patient conversation is the clinic's shared inbox: every org admin is in it
 * from the moment it starts, and anyone else joins only when added. Patient
 * conversations are created elsewhere with no participants, so the admins are
 * seated here the first time anything asks (remembered in a small table, so an
 * admin who was removed is not seated again).
 *
 * Changes emit `participant.added` / `participant.removed` on sb.events; the
 * webhook fan-out turns them into events.
 */
import type { Participant } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { ConversationRecord } from './records.js';

export interface ParticipantChange {
  conversation: ConversationRecord;
  userId: string;
  /** Who was in the conversation when it happened (for `removed`: including the one who left). */
  audience: string[];
  occurredMs: number;
}

interface SeatedRecord {
  /** Conversation id. */
  id: string;
}

function seatedPatientConversations(sb: SandboxContext) {
  return sb.store.table<SeatedRecord>('patient_conversation_rosters');
}

/** Seats the org's admins in a patient conversation the first time it is looked at. */
function ensureRoster(sb: SandboxContext, c: ConversationRecord): void {
  if (c.type !== 'patient' || seatedPatientConversations(sb).get(c.id)) return;
  for (const user of sb.db.users.values()) {
    if (user.orgId === c.orgId && user.role === 'admin' && !c.participantIds.includes(user.id)) {
      c.participantIds.push(user.id);
      c.joinedAt[user.id] = c.created_at;
    }
  }
  seatedPatientConversations(sb).put({ id: c.id });
  sb.db.conversations.put(c);
  sb.store.changed();
}

export function participantIds(sb: SandboxContext, c: ConversationRecord): string[] {
  ensureRoster(sb, c);
  return [...c.participantIds];
}

export function isParticipant(sb: SandboxContext, c: ConversationRecord, userId: string | null): boolean {
  return userId !== null && participantIds(sb, c).includes(userId);
}

/** Participants in joining order (then user id), as the list endpoint pages them. */
export function participantsOf(sb: SandboxContext, c: ConversationRecord): Participant[] {
  return participantIds(sb, c)
    .map((userId) => participantView(c, userId))
    .sort((a, b) => (a.joined_at === b.joined_at ? cmp(a.user_id, b.user_id) : cmp(a.joined_at, b.joined_at)));
}

export function participantView(c: ConversationRecord, userId: string): Participant {
  return { user_id: userId, conversation_id: c.id, joined_at: c.joinedAt[userId] ?? c.created_at };
}

export function addParticipant(sb: SandboxContext, c: ConversationRecord, userId: string): Participant {
  ensureRoster(sb, c);
  const now = sb.clock.now();
  c.participantIds.push(userId);
  c.joinedAt[userId] = sb.clock.iso(now);
  sb.db.conversations.put(c);
  sb.store.changed();
  const change: ParticipantChange = { conversation: c, userId, audience: [...c.participantIds], occurredMs: now };
  sb.events.emit('participant.added', change);
  return participantView(c, userId);
}

export function removeParticipant(sb: SandboxContext, c: ConversationRecord, userId: string): void {
  ensureRoster(sb, c);
  const audience = [...c.participantIds];
  c.participantIds = c.participantIds.filter((id) => id !== userId);
  delete c.joinedAt[userId];
  sb.db.conversations.put(c);
  sb.store.changed();
  const change: ParticipantChange = { conversation: c, userId, audience, occurredMs: sb.clock.now() };
  sb.events.emit('participant.removed', change);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
