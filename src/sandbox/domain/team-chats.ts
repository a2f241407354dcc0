/**
 * Team chats (`direct` conversations between staff) and what an org admin's
 * OAuth token can see of conversations (api-spec §4.8): every patient
 * conversation of the organization, and the team chats the admin is in. A
 * team chat without the admin does not exist as far as the admin is
 * concerned (404, never 403, so its existence does not leak).
 */
import type { SandboxContext } from '../context.js';
import type { Principal } from './principal.js';
import type { ConversationRecord, MessageRecord, UserRecord } from './records.js';
import { storeMessage } from './patient-messages.js';

export function isVisibleToAdmin(principal: Principal, c: ConversationRecord): boolean {
  if (c.orgId !== principal.orgId) return false;
  if (c.type === 'patient') return true;
  return principal.userId !== null && c.participantIds.includes(principal.userId);
}

/** A message from the admin in a team chat: under their name, via the app; the chat counts as read. */
export function sendTeamChatMessage(sb: SandboxContext, principal: Principal, c: ConversationRecord, body: string): MessageRecord {
  const message = storeMessage(sb, c, {
    senderId: principal.senderId,
    senderName: principal.name,
    senderKind: 'staff',
    patientId: null,
    // Team chats stay inside the service, like a secure message.
    channel: 'secure',
    phoneNumberId: null,
    delivery: null,
    campaignId: null,
    body,
    sentVia: principal.app?.name ?? null,
  });
  // Read up to and including the admin's own message (one clock reading, so never a millisecond before it).
  c.seen_at = message.created_at;
  sb.db.conversations.put(c);
  return message;
}

/**
 * Seeds two team chats in the first organization (docs/sandbox.md): Dana and
 * Sam, which Dana's /me sees; Sam and Riley, which she must not.
 */
export function seedTeamChats(sb: SandboxContext, orgId: string, id: (name: string) => string): void {
  const users = sb.db.users.filter((u) => u.orgId === orgId);
  const byEmail = (email: string) => users.find((u) => u.email === email);
  const dana = byEmail('dana@riverside.example');
  const sam = byEmail('sam@riverside.example');
  const riley = byEmail('riley@riverside.example');
  if (!dana || !sam || !riley) return;
  const now = sb.clock.now();
  const minutesAgo = (m: number) => now - m * 60_000;

  chat(sb, 'chat-dana-sam', id, orgId, [dana, sam], minutesAgo(180), [
    [sam, 120, 'Dana, the 3 pm slot on Thursday is double-booked. Which patient should move?'],
    [dana, 110, 'Move the follow-up to Friday morning, please.'],
    [sam, 100, 'Done. Friday 9:30.'],
  ]);
  chat(sb, 'chat-sam-riley', id, orgId, [sam, riley], minutesAgo(90), [
    [riley, 60, 'Sam, can you cover recalls tomorrow afternoon?'],
    [sam, 55, 'Yes, I will take them after lunch.'],
  ]);
  sb.store.changed();
}

function chat(
  sb: SandboxContext,
  name: string,
  idOf: (name: string) => string,
  orgId: string,
  members: UserRecord[],
  createdMs: number,
  lines: [UserRecord, number, string][],
): void {
  const now = sb.clock.now();
  const id = idOf(name);
  const conversation = sb.db.conversations.put({
    id,
    orgId,
    type: 'direct',
    title: members.map((m) => m.name).join(', '),
    created_at: sb.clock.iso(createdMs),
    participantIds: members.map((m) => m.id),
    joinedAt: Object.fromEntries(members.map((m) => [m.id, sb.clock.iso(createdMs)])),
    patientId: null,
    phoneNumberId: null,
    channel: null,
    last_message_at: null,
    seen_at: null,
  });
  lines.forEach(([from, minutesAgo, body], i) => {
    const ms = now - minutesAgo * 60_000;
    const message = sb.db.messages.put({
      id: idOf(`${name}-message-${i}`),
      seq: sb.store.nextSeq(),
      orgId,
      conversationId: id,
      senderId: from.id,
      senderName: from.name,
      senderKind: 'staff',
      patientId: null,
      channel: 'secure',
      phoneNumberId: null,
      delivery: null,
      campaignId: null,
      created_at: sb.clock.iso(ms),
      createdMs: ms,
      edited_at: null,
      body,
      replyToId: null,
      sentVia: null,
    });
    conversation.last_message_at = message.created_at;
  });
}
