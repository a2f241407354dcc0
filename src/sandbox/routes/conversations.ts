/**
 * Conversation-scoped reads of api-spec §4.9 (older style: 401 `unauthorized`;
 * staff-side, so OAuth only): a conversation, its messages, and the replies
 * to a message, in the smaller message shape, oldest first.
 */
import type { FastifyInstance } from 'fastify';
import type { ConversationSummary } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { pageOf } from '../domain/paging.js';
import { memberConversation, visibleMessage } from '../domain/conversation-access.js';
import { conversationMessageView } from '../domain/views.js';
import type { ConversationRecord, MessageRecord } from '../domain/records.js';

export function conversationSummary(c: ConversationRecord): ConversationSummary {
  return { id: c.id, organization_id: c.orgId, type: c.type, created_at: c.created_at };
}

/** Oldest first, same-millisecond messages by id (§4.12), read from the (conversation_id, created_ms, id) index. */
function conversationMessages(sb: SandboxContext, conversationId: string) {
  return (after: { key: number | string; id: string } | null): Iterable<MessageRecord> =>
    after
      ? sb.db.messages.query('conversation_id = ? AND (created_ms > ? OR (created_ms = ? AND id > ?))', [conversationId, after.key, after.key, after.id], 'created_ms, id')
      : sb.db.messages.query('conversation_id = ?', [conversationId], 'created_ms, id');
}

export function registerConversationRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'GET',
    url: '/conversations/:conversationId',
    scope: 'conversations:read',
    credentials: ['oauth'],
    style: 'legacy',
    handler: (req) => ({ status: 200, body: conversationSummary(memberConversation(sb, req.principal, req.params.conversationId!)) }),
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/conversations/:conversationId/messages',
    scope: 'messages:read',
    credentials: ['oauth'],
    style: 'legacy',
    paged: true,
    handler: (req) => {
      const conversation = memberConversation(sb, req.principal, req.params.conversationId!);
      const rows = conversationMessages(sb, conversation.id);
      const page = pageOf(sb, req.page, `conversation-messages:${conversation.id}`, rows, (m) => m.createdMs, conversationMessageView);
      return { status: 200, body: page };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/messages/:messageId/replies',
    scope: 'messages:read',
    credentials: ['oauth'],
    style: 'legacy',
    paged: true,
    handler: (req) => {
      const { message } = visibleMessage(sb, req.principal, req.params.messageId!);
      const rows = sb.db.messages.where('reply_to_id = ? AND conversation_id = ?', [message.id, message.conversationId], 'created_ms, id');
      const page = pageOf(sb, req.page, `message-replies:${message.id}`, rows, (m) => m.createdMs, conversationMessageView);
      return { status: 200, body: page };
    },
  });
}
