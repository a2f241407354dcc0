import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { problems } from '../problem.js';

/**
 * GET /organization (§4.3): any valid credential of the organization; the spec
 * names no scope, so none is required (docs/sandbox.md).
 */
export function registerOrganizationRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'GET',
    url: '/organization',
    scope: null,
    handler: (req) => {
      const org = sb.db.orgs.get(req.principal.orgId);
      if (!org) throw problems.notFound('Organization');
      return { status: 200, body: { id: org.id, name: org.name } };
    },
  });
}
