/**
 * GET /v1/patient-messages (api-spec §4.4): messages of the organization's
 * patient conversations in a time range, newest first by default. Parameters
 * are read in domain/message-query.ts, pages cut in domain/message-pages.ts.
 * GET /patient-messages/{id} lives with sending, in patient-messages.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { readMessageQuery } from '../domain/message-query.js';
import { messagesPage } from '../domain/message-pages.js';

export function registerPatientMessageListRoute(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'GET',
    url: '/patient-messages',
    scope: 'messages.read',
    handler: (req) => ({ status: 200, body: messagesPage(sb, req, readMessageQuery(req, sb)) }),
  });
}
