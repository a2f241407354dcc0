/**
 * Staff-side fixtures for the conversation-scoped tests: the seeded people,
 * OAuth access tokens minted straight into the store (no browser flow), and
 * conversations and messages written the way the sandbox's own senders write
 * them (a stored MessageRecord plus the `message.created` domain event).
 */
import { randomUUID } from 'node:crypto';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import type { ConversationRecord, MessageRecord, UserRecord } from '../../src/sandbox/domain/records.js';
import { accessTokens } from '../../src/sandbox/domain/access-tokens.js';
import { isolatedEnv } from './cli.js';

export const STAFF_SCOPES = [
  'conversations:read',
  'messages:read',
  'participants:read',
  'participants:write',
  'reactions:write',
  'exports:read',
];

export function staffWorld(sandbox: RunningSandbox) {
  const sb = sandbox.sb;
  const user = (email: string): UserRecord => {
    const found = sb.db.users.find((u) => u.email === email);
    if (!found) throw new Error(`no seeded user ${email}`);
    return found;
  };
  const dana = user('dana@riverside.example');
  const sam = user('sam@riverside.example');
  const riley = user('riley@riverside.example');
  const lee = user('lee@lakeside.example');

  function mintToken(who: UserRecord = dana, scopes: string[] = STAFF_SCOPES, clientId = 'msgctl-sandbox-cli'): string {
    const token = `mat_test_${randomUUID().replace(/-/g, '')}`;
    accessTokens(sb.store).put({
      id: token,
      orgId: who.orgId,
      userId: who.id,
      clientId,
      scopes,
      expiresMs: sb.clock.now() + 3600e3,
      revoked: false,
      grantId: randomUUID(),
    });
    return token;
  }

  /** CLI environment acting as `who` through an OAuth token. */
  function oauthEnv(token: string = mintToken(), extra: Record<string, string | undefined> = {}) {
    return isolatedEnv({ MSGCTL_BASE_URL: sandbox.baseUrl, MSGCTL_TOKEN: token, ...extra });
  }

  function addConversation(members: UserRecord[], type: ConversationRecord['type'] = 'direct'): ConversationRecord {
    const createdAt = sb.clock.iso();
    return sb.db.conversations.insert({
      id: randomUUID(),
      orgId: members[0]!.orgId,
      type,
      title: members.map((m) => m.name).join(', '),
      created_at: createdAt,
      participantIds: members.map((m) => m.id),
      joinedAt: Object.fromEntries(members.map((m) => [m.id, createdAt])),
      patientId: null,
      phoneNumberId: null,
      channel: null,
      last_message_at: null,
      seen_at: null,
    });
  }

  function addMessage(conversation: ConversationRecord, sender: UserRecord, body: string, replyTo: MessageRecord | null = null): MessageRecord {
    const now = sb.clock.now();
    const message = sb.db.messages.insert({
      id: randomUUID(),
      seq: sb.store.nextSeq(),
      orgId: conversation.orgId,
      conversationId: conversation.id,
      senderId: sender.id,
      senderName: sender.name,
      senderKind: 'staff',
      patientId: null,
      channel: 'secure',
      phoneNumberId: null,
      delivery: null,
      campaignId: null,
      created_at: sb.clock.iso(now),
      createdMs: now,
      edited_at: null,
      body,
      replyToId: replyTo?.id ?? null,
      sentVia: null,
    });
    sb.events.emit('message.created', message);
    return message;
  }

  return { sb, dana, sam, riley, lee, mintToken, oauthEnv, addConversation, addMessage };
}
