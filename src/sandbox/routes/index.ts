/**
 * Every sandbox route module, registered in one place.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerOrganizationRoutes } from './organization.js';
import { registerControlRoutes } from './control.js';

export async function registerAllRoutes(app: FastifyInstance, sb: SandboxContext): Promise<void> {
  registerOrganizationRoutes(app, sb);
  registerControlRoutes(app, sb);
}
