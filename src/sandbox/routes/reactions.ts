/**
 * Reactions: POST /messages/{id}/reactions of api-spec §4.9, and removing
 * one's own reaction, which only the message.reaction.deleted event implies
 * (DELETE /messages/{id}/reactions/{emoji}, docs/conversation-scoped.md).
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { problems } from '../problem.js';
import { visibleMessage } from '../domain/conversation-access.js';
import { checkSingleEmoji } from '../domain/emoji.js';
import { addReaction, reactionView, removeReaction } from '../domain/reactions.js';
import { fieldsOf } from '../http/body-shape.js';

export function registerReactionRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'POST',
    url: '/messages/:messageId/reactions',
    body: fieldsOf('emoji'),
    scope: 'reactions:write',
    credentials: ['oauth'],
    style: 'legacy',
    idempotent: true,
    handler: (req) => {
      const { message } = visibleMessage(sb, req.principal, req.params.messageId!);
      const check = checkSingleEmoji((req.body as { emoji?: unknown } | null)?.emoji);
      if (!check.ok) throw problems.validation([{ path: '/emoji', code: check.code, message: check.message }]);
      const { reaction, created } = addReaction(sb, message, req.principal.userId!, check.emoji);
      // Reacting again with the same emoji is not an error: the existing reaction comes back (200, no event).
      return { status: created ? 201 : 200, body: reactionView(reaction) };
    },
  });

  apiRoute(app, sb, {
    method: 'DELETE',
    url: '/messages/:messageId/reactions/:emoji',
    scope: 'reactions:write',
    credentials: ['oauth'],
    style: 'legacy',
    textParams: ['emoji'],
    handler: (req) => {
      const { message } = visibleMessage(sb, req.principal, req.params.messageId!);
      const check = checkSingleEmoji(req.params.emoji);
      if (!check.ok) throw problems.invalidRequest(`The path must end with one emoji (percent-encoded): ${check.message}`);
      if (!removeReaction(sb, message, req.principal.userId!, check.emoji)) {
        throw problems.notFound('Reaction (you have no reaction with that emoji on this message)');
      }
      return { status: 204 };
    },
  });
}
