/**
 * Every sandbox route module, registered in one place.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerOrganizationRoutes } from './organization.js';
import { registerControlRoutes } from './control.js';
import { registerFaultRoutes, type FaultState } from './faults.js';
import { registerPatientRoutes } from './patients.js';
import { registerPatientMessageRoutes } from './patient-messages.js';
import { registerPatientMessageListRoute } from './patient-messages-list.js';
import { registerPatientConversationRoutes } from './patient-conversations.js';
import { registerInboundRoutes } from './inbound.js';
import { registerImportRoutes } from './imports.js';
import { registerOAuthRoutes } from './oauth.js';
import { addFormParser } from '../http/edge.js';
import { registerMeRoutes } from './me.js';
import { registerCampaignRoutes } from './campaigns.js';
import { registerConversationRoutes } from './conversations.js';
import { registerParticipantRoutes } from './participants.js';
import { registerReactionRoutes } from './reactions.js';
import { registerExportRoutes } from './exports.js';
import { registerStaffRoutes } from './staff.js';
import { registerWebhookRoutes } from './webhooks.js';
import { registerDiscoveryRoutes } from './discovery.js';

export async function registerAllRoutes(app: FastifyInstance, sb: SandboxContext, faults: FaultState): Promise<void> {
  registerFaultRoutes(app, faults);
  registerOrganizationRoutes(app, sb);
  registerPatientRoutes(app, sb);
  registerPatientMessageRoutes(app, sb);
  registerPatientMessageListRoute(app, sb);
  registerPatientConversationRoutes(app, sb);
  registerInboundRoutes(app, sb);
  registerImportRoutes(app, sb);
  // The only routes that take form bodies (RFC 6749 token/revocation requests, the approve page's form).
  await app.register(async (oauth) => {
    addFormParser(oauth);
    registerOAuthRoutes(oauth, sb);
  });
  registerMeRoutes(app, sb);
  registerCampaignRoutes(app, sb);
  registerConversationRoutes(app, sb);
  registerParticipantRoutes(app, sb);
  registerReactionRoutes(app, sb);
  registerExportRoutes(app, sb);
  registerStaffRoutes(app, sb);
  registerWebhookRoutes(app, sb);
  registerDiscoveryRoutes(app, sb);
  registerControlRoutes(app, sb);
}
