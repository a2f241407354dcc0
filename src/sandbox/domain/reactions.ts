/**
 * Emoji reactions on messages (api-spec §2.9 Reaction). One reaction per
 * (message, user, emoji): reacting twice with the same emoji changes nothing.
 * Changes emit `reaction.created` / `reaction.deleted` on sb.events.
 */
import type { Reaction } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { MessageRecord } from './records.js';

export interface ReactionRecord {
  /** messageId + ':' + userId + ':' + emoji */
  id: string;
  orgId: string;
  conversationId: string;
  messageId: string;
  userId: string;
  emoji: string;
  created_at: string;
}

export interface ReactionChange {
  reaction: ReactionRecord;
  occurredMs: number;
}

export function reactions(sb: SandboxContext) {
  return sb.store.table<ReactionRecord>('reactions');
}

const reactionId = (messageId: string, userId: string, emoji: string) => `${messageId}:${userId}:${emoji}`;

export function reactionView(r: ReactionRecord): Reaction {
  return { message_id: r.messageId, user_id: r.userId, emoji: r.emoji, created_at: r.created_at };
}

/** Adds the reaction unless it exists; `created` tells which. */
export function addReaction(
  sb: SandboxContext,
  message: MessageRecord,
  userId: string,
  emoji: string,
): { reaction: ReactionRecord; created: boolean } {
  const id = reactionId(message.id, userId, emoji);
  const existing = reactions(sb).get(id);
  if (existing) return { reaction: existing, created: false };
  const now = sb.clock.now();
  const reaction = reactions(sb).insert({
    id,
    orgId: message.orgId,
    conversationId: message.conversationId,
    messageId: message.id,
    userId,
    emoji,
    created_at: sb.clock.iso(now),
  });
  sb.store.changed();
  sb.events.emit('reaction.created', { reaction, occurredMs: now } satisfies ReactionChange);
  return { reaction, created: true };
}

/** Removes the user's own reaction; false when they had none with that emoji. */
export function removeReaction(sb: SandboxContext, message: MessageRecord, userId: string, emoji: string): boolean {
  const reaction = reactions(sb).get(reactionId(message.id, userId, emoji));
  if (!reaction) return false;
  reactions(sb).delete(reaction.id);
  sb.store.changed();
  sb.events.emit('reaction.deleted', { reaction, occurredMs: sb.clock.now() } satisfies ReactionChange);
  return true;
}
