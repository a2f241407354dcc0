/**
 * What the app user may see through the conversation-scoped endpoints
 * (docs/conversation-scoped.md "Not found or forbidden"):
 *
 * - a conversation outside the caller's organization is 404 `not_found`
 *   (another organization's ids are not even confirmed to exist);
 * - a conversation of the organization the app user is not in is
 *   403 `conversation_membership_required` (the spec lists it for the
 *   /conversations/{id}… endpoints);
 * - a message is reached only through a conversation the app user is in:
 *   anything else is 404, as §7.3 says not_found covers resources outside
 *   the app user's conversations.
 */
import type { SandboxContext } from '../context.js';
import { ProblemError, problems } from '../problem.js';
import type { Principal } from './principal.js';
import type { ConversationRecord, MessageRecord } from './records.js';
import { isParticipant } from './participants.js';

export function orgConversation(sb: SandboxContext, principal: Principal, conversationId: string): ConversationRecord {
  const conversation = sb.db.conversations.get(conversationId);
  if (!conversation || conversation.orgId !== principal.orgId) throw problems.notFound('Conversation');
  return conversation;
}

export function memberConversation(sb: SandboxContext, principal: Principal, conversationId: string): ConversationRecord {
  const conversation = orgConversation(sb, principal, conversationId);
  if (!isParticipant(sb, conversation, principal.userId)) {
    throw new ProblemError(
      403,
      'conversation_membership_required',
      'The app user is not a participant in this conversation.',
    );
  }
  return conversation;
}

export function visibleMessage(
  sb: SandboxContext,
  principal: Principal,
  messageId: string,
): { message: MessageRecord; conversation: ConversationRecord } {
  const message = sb.db.messages.get(messageId);
  const conversation = message ? sb.db.conversations.get(message.conversationId) : undefined;
  if (!message || !conversation || message.orgId !== principal.orgId || !isParticipant(sb, conversation, principal.userId)) {
    throw problems.notFound('Message');
  }
  return { message, conversation };
}
