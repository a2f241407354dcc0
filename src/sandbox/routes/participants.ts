/**
 * Participants of a conversation: the list of api-spec §4.9, and adding and
 * removing, which the spec implies (events, 422 participant_not_in_organization)
 * but does not show — designed in docs/conversation-scoped.md. Only a
 * participant may list or change who is in a conversation.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { pageOf } from '../domain/paging.js';
import { FieldErrors, ProblemError, problems } from '../problem.js';
import { memberConversation } from '../domain/conversation-access.js';
import { addParticipant, isParticipant, participantsOf, removeParticipant } from '../domain/participants.js';
import { looksLikeUuid } from '../validation/formats.js';
import { fieldsOf } from '../http/body-shape.js';

/** Scope for adding and removing: the spec's catalog has only participants:read, and reading must not allow writing. */
export const PARTICIPANTS_WRITE_SCOPE = 'participants:write';

export function registerParticipantRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'GET',
    url: '/conversations/:conversationId/participants',
    scope: 'participants:read',
    credentials: ['oauth'],
    style: 'legacy',
    paged: true,
    handler: (req) => {
      const conversation = memberConversation(sb, req.principal, req.params.conversationId!);
      const rows = participantsOf(sb, conversation).map((p) => ({ ...p, id: p.user_id }));
      const page = pageOf(sb, req.page, `participants:${conversation.id}`, rows, (p) => p.joined_at, ({ id: _id, ...p }) => p);
      return { status: 200, body: page };
    },
  });

  apiRoute(app, sb, {
    method: 'POST',
    url: '/conversations/:conversationId/participants',
    body: fieldsOf('user_id'),
    scope: PARTICIPANTS_WRITE_SCOPE,
    credentials: ['oauth'],
    style: 'legacy',
    idempotent: true,
    handler: (req) => {
      const conversation = memberConversation(sb, req.principal, req.params.conversationId!);
      const body = (req.body ?? {}) as { user_id?: unknown };
      const errors = new FieldErrors();
      if (body.user_id === undefined || body.user_id === null || body.user_id === '') {
        errors.add('/user_id', 'required', 'user_id is required.');
      } else if (typeof body.user_id !== 'string' || !looksLikeUuid(body.user_id)) {
        errors.add('/user_id', 'invalid_uuid', 'user_id must be a UUID.');
      }
      errors.throwIfAny();
      const userId = (body.user_id as string).toLowerCase();
      const user = sb.db.users.get(userId);
      if (!user || user.orgId !== conversation.orgId) {
        throw new ProblemError(422, 'participant_not_in_organization', 'Only members of the organization can be added to a conversation.');
      }
      if (isParticipant(sb, conversation, userId)) {
        throw problems.conflict('already_participant', 'That user is already a participant in this conversation.');
      }
      return { status: 201, body: addParticipant(sb, conversation, userId) };
    },
  });

  apiRoute(app, sb, {
    method: 'DELETE',
    url: '/conversations/:conversationId/participants/:userId',
    scope: PARTICIPANTS_WRITE_SCOPE,
    credentials: ['oauth'],
    style: 'legacy',
    handler: (req) => {
      const conversation = memberConversation(sb, req.principal, req.params.conversationId!);
      const userId = req.params.userId!;
      if (!isParticipant(sb, conversation, userId)) throw problems.notFound('Participant');
      removeParticipant(sb, conversation, userId);
      return { status: 204 };
    },
  });
}
