/**
 * Webhook endpoint registration (api-spec §6 says only that deliveries are
 * signed; this design is in docs/events.md): POST, GET and DELETE
 * /webhook-endpoints. OAuth only, older style like the rest of the
 * conversation-scoped family, scope conversations:read (events describe
 * conversations; payloads carry ids only). Each app user sees only the
 * endpoints their app registered.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute, type ApiRequest } from '../http/route.js';
import { pageOf } from '../domain/paging.js';
import { FieldErrors, problems } from '../problem.js';
import {
  createWebhookEndpoint,
  EVENT_TYPES,
  webhookEndpoints,
  webhookEndpointView,
  type EventType,
  type WebhookEndpointRecord,
} from '../domain/webhooks.js';
import { fieldsOf } from '../http/body-shape.js';
import { oldestFirst } from '../domain/order.js';

const SCOPE = 'conversations:read';
/** Enough for a few apps' environments; stops a runaway script from registering thousands. */
const MAX_ENDPOINTS_PER_APP_USER = 20;

function owner(req: ApiRequest) {
  return { orgId: req.principal.orgId, userId: req.principal.userId!, clientId: req.principal.app?.clientId ?? '' };
}

function ownedBy(req: ApiRequest) {
  const o = owner(req);
  return (e: WebhookEndpointRecord) => e.orgId === o.orgId && e.userId === o.userId && e.clientId === o.clientId;
}

function validateBody(raw: unknown): { url: string; events: EventType[] | null } {
  const body = (raw ?? {}) as { url?: unknown; events?: unknown };
  const errors = new FieldErrors();
  let url: URL | null = null;
  if (typeof body.url !== 'string' || body.url === '') {
    errors.add('/url', 'required', 'url is required: where events are POSTed.');
  } else {
    try {
      url = new URL(body.url);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
      if (url.username || url.password) errors.add('/url', 'invalid_url', 'url must not contain credentials.');
    } catch {
      errors.add('/url', 'invalid_url', 'url must be an absolute http(s) URL.');
    }
  }
  let events: EventType[] | null = null;
  if (body.events !== undefined && body.events !== null) {
    if (!Array.isArray(body.events) || body.events.length === 0) {
      errors.add('/events', 'invalid_type', 'events must be a non-empty list of event types (omit it for all).');
    } else {
      body.events.forEach((type, i) => {
        if (!EVENT_TYPES.includes(type as EventType)) {
          errors.add(`/events/${i}`, 'invalid_choice', `Unknown event type; one of ${EVENT_TYPES.join(', ')}.`);
        }
      });
      events = [...new Set(body.events as EventType[])];
    }
  }
  errors.throwIfAny();
  return { url: url!.toString(), events };
}

export function registerWebhookRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'POST',
    body: fieldsOf('url', 'events'),
    url: '/webhook-endpoints',
    scope: SCOPE,
    credentials: ['oauth'],
    style: 'legacy',
    idempotent: true,
    handler: (req) => {
      const { url, events } = validateBody(req.body);
      if (webhookEndpoints(sb).filter(ownedBy(req)).length >= MAX_ENDPOINTS_PER_APP_USER) {
        throw problems.validation(
          [{ path: '/url', code: 'too_many_endpoints', message: `At most ${MAX_ENDPOINTS_PER_APP_USER} endpoints per app user; delete one first.` }],
        );
      }
      const record = createWebhookEndpoint(sb, owner(req), url, events);
      return { status: 201, body: webhookEndpointView(record, true) };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/webhook-endpoints',
    scope: SCOPE,
    credentials: ['oauth'],
    style: 'legacy',
    paged: true,
    handler: (req) => {
      const rows = oldestFirst(webhookEndpoints(sb).filter(ownedBy(req)));
      return { status: 200, body: pageOf(sb, req.page, 'webhook-endpoints', rows, (e) => e.created_at, (e) => webhookEndpointView(e)) };
    },
  });

  apiRoute(app, sb, {
    method: 'DELETE',
    url: '/webhook-endpoints/:endpointId',
    scope: SCOPE,
    credentials: ['oauth'],
    style: 'legacy',
    handler: (req) => {
      const endpoint = webhookEndpoints(sb).get(req.params.endpointId!);
      if (!endpoint || !ownedBy(req)(endpoint)) throw problems.notFound('Webhook endpoint');
      webhookEndpoints(sb).delete(endpoint.id);
      sb.store.changed();
      return { status: 204 };
    },
  });
}
