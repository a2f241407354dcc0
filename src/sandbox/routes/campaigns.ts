/**
 * Campaign endpoints (api-spec §4.6). K or O; `messages.write` for writes and
 * `messages.read` for every read (the spec names it for the recipient list;
 * the sandbox uses it for GET /campaigns and GET /campaigns/{id} too). The
 * rules live in domain/campaigns*.ts; choices are in docs/campaigns.md.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import type { CampaignStatus } from '../../contract/api.js';
import { RECIPIENT_STATUSES } from '../../contract/api.js';
import { apiRoute, type ApiRequest } from '../http/route.js';
import { refuseEmptyFilters } from './empty-filter.js';
import { problems } from '../problem.js';
import { pageOf } from '../domain/paging.js';
import { senderFromPrincipal } from '../domain/patient-messages.js';
import {
  campaignTable,
  campaignView,
  deleteCampaign,
  findCampaign,
  pauseCampaign,
  recipientsOf,
  recipientView,
  startCampaign,
  stopCampaign,
  type CampaignRecord,
} from '../domain/campaigns.js';
import { createCampaign, updateCampaign } from '../domain/campaigns-edit.js';
import { addRecipients, removeRecipients } from '../domain/campaigns-recipients.js';
import { fieldsOf } from '../http/body-shape.js';
import { oldestFirst } from '../domain/order.js';

const CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['draft', 'running', 'paused', 'completed', 'stopped'];

export function registerCampaignRoutes(app: FastifyInstance, sb: SandboxContext): void {
  const read = 'messages.read';
  const write = 'messages.write';
  const ok = (c: CampaignRecord, status = 200) => ({ status, body: campaignView(sb, c) });

  apiRoute(app, sb, {
    method: 'POST',
    url: '/campaigns',
    body: fieldsOf('name', 'body', 'channel', 'from', 'send_interval_seconds'),
    scope: write,
    idempotent: true,
    handler: (req) => ok(createCampaign(sb, senderFromPrincipal(req.principal), req.body), 201),
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/campaigns',
    scope: read,
    query: ['status', 'archived'],
    paged: true,
    handler: (req) => {
      const status = oneOf(req, 'status', CAMPAIGN_STATUSES);
      const archived = oneOf(req, 'archived', ['true', 'false'] as const) ?? 'false';
      const rows = oldestFirst(
        campaignTable(sb).filter((c) => c.orgId === req.principal.orgId && (!status || c.status === status) && String(c.archived) === archived),
      );
      const list = `campaigns:${status ?? ''}:${archived}`;
      return { status: 200, body: pageOf(sb, req.page, list, rows, (c) => c.created_at, (c) => campaignView(sb, c)) };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/campaigns/:campaignId',
    scope: read,
    handler: (req) => ok(campaignFromPath(sb, req)),
  });

  apiRoute(app, sb, {
    method: 'PATCH',
    url: '/campaigns/:campaignId',
    body: fieldsOf('name', 'body', 'channel', 'from', 'send_interval_seconds', 'archived'),
    scope: write,
    handler: (req) => {
      const c = campaignFromPath(sb, req);
      updateCampaign(sb, c, req.body);
      return ok(c);
    },
  });

  apiRoute(app, sb, {
    method: 'DELETE',
    url: '/campaigns/:campaignId',
    scope: write,
    handler: (req) => {
      deleteCampaign(sb, campaignFromPath(sb, req));
      return { status: 204 };
    },
  });

  const transitions = { start: startCampaign, pause: pauseCampaign, stop: stopCampaign };
  for (const [action, apply] of Object.entries(transitions)) {
    apiRoute(app, sb, {
      method: 'POST',
      url: `/campaigns/:campaignId/${action}`,
      body: fieldsOf(),
      scope: write,
      idempotent: true,
      handler: (req) => {
        const c = campaignFromPath(sb, req);
        apply(sb, c);
        return ok(c);
      },
    });
  }

  apiRoute(app, sb, {
    method: 'POST',
    url: '/campaigns/:campaignId/recipients',
    body: fieldsOf('patient_ids'),
    scope: write,
    idempotent: true,
    handler: (req) => ({ status: 200, body: addRecipients(sb, campaignFromPath(sb, req), req.body) }),
  });

  apiRoute(app, sb, {
    method: 'POST',
    url: '/campaigns/:campaignId/recipients/remove',
    body: fieldsOf('patient_ids'),
    scope: write,
    idempotent: true,
    handler: (req) => ({ status: 200, body: removeRecipients(sb, campaignFromPath(sb, req), req.body) }),
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/campaigns/:campaignId/recipients',
    scope: read,
    query: ['status'],
    paged: true,
    handler: (req) => {
      const c = campaignFromPath(sb, req);
      const status = oneOf(req, 'status', RECIPIENT_STATUSES);
      const rows = status ? recipientsOf(sb, c.id).filter((r) => r.status === status) : recipientsOf(sb, c.id);
      const list = `campaign-recipients:${c.id}:${status ?? ''}`;
      return { status: 200, body: pageOf(sb, req.page, list, rows, (r) => r.seq, (r) => recipientView(sb, r)) };
    },
  });
}

/** A filter that must be one of `values` when present; 422 when empty (empty-filter.ts), 400 invalid_request otherwise. */
function oneOf<T extends string>(req: ApiRequest, name: string, values: readonly T[]): T | undefined {
  refuseEmptyFilters(req, [name]);
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) {
    throw problems.badParameter(name, `${name} must be one of ${values.join(', ')} (got "${raw}").`);
  }
  return raw as T;
}

/** The path's campaign (its id is a UUID: route.ts checked it); an unknown or other org's id is 404. */
function campaignFromPath(sb: SandboxContext, req: ApiRequest): CampaignRecord {
  const c = findCampaign(sb, req.principal.orgId, req.params.campaignId!);
  if (!c) throw problems.notFound('Campaign');
  return c;
}
