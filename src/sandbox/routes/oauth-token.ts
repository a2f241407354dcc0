/**
 * POST /oauth/token (RFC 6749 §3.2) and POST /oauth/revoke (RFC 7009) on the
 * sandbox origin. Form-encoded in, JSON out, never cached; errors are
 * `{ error, error_description }` rather than API problems.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { OAuthError } from '../domain/oauth-errors.js';
import { exchangeAuthorizationCode, refreshAccessToken, revokeToken } from '../domain/oauth-tokens.js';
import { authenticateClient } from './oauth-client-auth.js';
import { repeatedFormField } from '../http/edge.js';

type Form = Record<string, string | undefined>;

export function registerOAuthTokenRoutes(app: FastifyInstance, sb: SandboxContext): void {
  app.post('/oauth/token', async (request, reply) =>
    answer(reply, () => {
      const form = formOf(request);
      const client = authenticateClient(sb, request, form);
      switch (form.grant_type) {
        case 'authorization_code':
          return exchangeAuthorizationCode(sb, client, form);
        case 'refresh_token':
          return refreshAccessToken(sb, client, form);
        case undefined:
        case '':
          throw new OAuthError('invalid_request', 'grant_type is required.');
        default:
          throw new OAuthError('unsupported_grant_type', `grant_type "${form.grant_type}" is not supported (authorization_code, refresh_token).`);
      }
    }),
  );

  app.post('/oauth/revoke', async (request, reply) =>
    answer(reply, () => {
      const form = formOf(request);
      const client = authenticateClient(sb, request, form);
      if (!form.token) throw new OAuthError('invalid_request', 'token is required.');
      revokeToken(sb, client, form.token, form.token_type_hint);
      return {};
    }),
  );
}

function formOf(request: FastifyRequest): Form {
  const type = String(request.headers['content-type'] ?? '');
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'Send the request as application/x-www-form-urlencoded.');
  }
  const repeated = repeatedFormField(request.body);
  // RFC 6749 §3.2: parameters must not be included more than once.
  if (repeated !== undefined) throw new OAuthError('invalid_request', `${repeated} is given more than once.`);
  return (request.body ?? {}) as Form;
}

function answer(reply: FastifyReply, run: () => object) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  let status = 200;
  let body: object;
  try {
    body = run();
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    status = err.status;
    body = err.toBody();
    if (err.error === 'invalid_client') reply.header('www-authenticate', 'Basic realm="msgctl sandbox", charset="UTF-8"');
  }
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}
