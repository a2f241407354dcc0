/**
 * GET /v1/patient-messages (api-spec §4.4): messages of the organization's
 * patient conversations in a time range, newest first by default. Parameters
 * are read in message-query-params.ts, pages cut in domain/message-pages.ts.
 * GET /patient-messages/{id} lives with sending, in patient-messages.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { MESSAGE_LIST_PARAMETERS, readMessageQuery } from './message-query-params.js';
import { messagesPage } from '../domain/message-pages.js';
import { messagesPageJson } from '../domain/message-text-pages.js';

export function registerPatientMessageListRoute(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'GET',
    url: '/patient-messages',
    scope: 'messages.read',
    query: MESSAGE_LIST_PARAMETERS,
    paged: true,
    handler: (req) => {
      const query = readMessageQuery(req, sb);
      // Spliced from stored texts where it can be (message-text-pages.ts), else built from records.
      const json = messagesPageJson(sb, req.page, query);
      return json === null ? { status: 200, body: messagesPage(sb, req.page, query) } : { status: 200, json };
    },
  });
}
