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
import { ProblemError, problems } from '../http/problem.js';
import type { ApiRequest } from '../http/route.js';
import { looksLikeUuid } from '../validation/formats.js';
import type { ConversationRecord, MessageRecord } from './records.js';
import { isParticipant } from './participants.js';

/** A path parameter that must be a UUID (§4.9: "Path parameters are UUIDs"). */
export function uuidParam(req: ApiRequest, name: string): string {
  const value = req.params[name] ?? '';
  if (!looksLikeUuid(value)) throw problems.invalidRequest(`${name} must be a UUID (got "${value}").`);
  return value.toLowerCase();
}

export function orgConversation(sb: SandboxContext, req: ApiRequest, name = 'conversationId'): ConversationRecord {
  const conversation = sb.db.conversations.get(uuidParam(req, name));
  if (!conversation || conversation.orgId !== req.principal.orgId) throw problems.notFound('Conversation');
  return conversation;
}

export function memberConversation(sb: SandboxContext, req: ApiRequest, name = 'conversationId'): ConversationRecord {
  const conversation = orgConversation(sb, req, name);
  if (!isParticipant(sb, conversation, req.principal.userId)) {
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
  req: ApiRequest,
  name = 'messageId',
): { message: MessageRecord; conversation: ConversationRecord } {
  const message = sb.db.messages.get(uuidParam(req, name));
  const conversation = message ? sb.db.conversations.get(message.conversationId) : undefined;
  if (!message || !conversation || message.orgId !== req.principal.orgId || !isParticipant(sb, conversation, req.principal.userId)) {
    throw problems.notFound('Message');
  }
  return { message, conversation };
}
