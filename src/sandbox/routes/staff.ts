/**
 * GET /staff: the organization's staff directory, which api-spec §5.1 names
 * only as a staff-side call an API key may not make. Older style like the
 * other staff-side endpoints; scope participants:read, since the directory
 * is what one picks participants from (docs/conversation-scoped.md).
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { pageOf } from '../domain/paging.js';

export interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: 'admin' | 'staff';
}

export function registerStaffRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'GET',
    url: '/staff',
    scope: 'participants:read',
    credentials: ['oauth'],
    style: 'legacy',
    paged: true,
    handler: (req) => {
      const members = sb.db.users
        .filter((u) => u.orgId === req.principal.orgId)
        .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1));
      const page = pageOf(sb, req.page, 'staff', members, (u) => u.name, (u): StaffMember => ({
        id: u.id,
        name: u.name,
        email: u.email,
        role: u.role,
      }));
      return { status: 200, body: page };
    },
  });
}
