/**
 * The sandbox's OAuth 2.0 authorization server, on the sandbox origin (the
 * API's {auth_url}, not under /v1): authorize + approve page, token,
 * revocation, and RFC 8414 metadata so standard clients can discover it.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { SCOPES } from '../../contract/api.js';
import { registerOAuthAuthorizeRoutes } from './oauth-authorize.js';
import { registerOAuthTokenRoutes } from './oauth-token.js';

export function registerOAuthRoutes(app: FastifyInstance, sb: SandboxContext): void {
  registerOAuthAuthorizeRoutes(app, sb);
  registerOAuthTokenRoutes(app, sb);

  app.get('/.well-known/oauth-authorization-server', async () => ({
    issuer: sb.origin,
    authorization_endpoint: `${sb.origin}/oauth/authorize`,
    token_endpoint: `${sb.origin}/oauth/token`,
    revocation_endpoint: `${sb.origin}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  }));
}
