/**
 * Webhook endpoints (registration is not shown in api-spec §6; designed in
 * docs/events.md). An endpoint belongs to the app (OAuth client) and the app
 * user who registered it: it receives the events that user would see, and
 * only that app and user can list or delete it. The signing secret is shown
 * once, when the endpoint is created.
 */
import type { SandboxContext } from '../context.js';
import { generateWebhookSecret } from '../webhooks/signing.js';

import { EVENT_TYPES, type EventType } from '../../contract/api.js';

export { EVENT_TYPES, type EventType };

export interface WebhookEndpointRecord {
  id: string;
  orgId: string;
  userId: string;
  clientId: string;
  url: string;
  /** Event types to send; null = all. */
  events: EventType[] | null;
  secret: string;
  created_at: string;
  /** For cursor order: creation sequence. */
  seq: number;
}

export interface WebhookEndpointView {
  id: string;
  url: string;
  events: EventType[] | null;
  created_at: string;
  /** Only in the response that created it. */
  secret?: string;
}

export function webhookEndpoints(sb: SandboxContext) {
  return sb.store.table<WebhookEndpointRecord>('webhook_endpoints');
}

export function webhookEndpointView(e: WebhookEndpointRecord, withSecret = false): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    created_at: e.created_at,
    ...(withSecret ? { secret: e.secret } : {}),
  };
}

export function createWebhookEndpoint(
  sb: SandboxContext,
  owner: { orgId: string; userId: string; clientId: string },
  url: string,
  events: EventType[] | null,
): WebhookEndpointRecord {
  const record = webhookEndpoints(sb).insert({
    id: sb.newId(),
    ...owner,
    url,
    events,
    secret: generateWebhookSecret(),
    created_at: sb.clock.iso(),
    seq: sb.store.nextSeq(),
  });
  sb.store.changed();
  return record;
}
