/**
 * GET /oauth/authorize and the approve page's POST /oauth/authorize/decision
 * (RFC 6749 §4.1.1–4.1.2). Rules live in domain/oauth-authorize.ts; this file
 * turns outcomes into HTML pages and redirects.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import { decide, startAuthorization } from '../domain/oauth-authorize.js';
import { errorPage, refusedPage, signInPage } from './oauth-pages.js';

/**
 * No scripts, no framing, no caching, no referrer (the page's URL carries the
 * state and challenge). No form-action limit: browsers apply it to the
 * redirect that follows the form, which goes to the app.
 */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export function registerOAuthAuthorizeRoutes(app: FastifyInstance, sb: SandboxContext): void {
  app.get('/oauth/authorize', async (request, reply) => {
    const outcome = startAuthorization(sb, request.query as Record<string, string | string[] | undefined>);
    switch (outcome.kind) {
      case 'page':
        return html(reply, outcome.status, errorPage(outcome.title, outcome.message));
      case 'redirect':
        return redirect(reply, outcome.location);
      case 'sign-in':
        return html(reply, 200, signInPage(outcome.request, outcome.client));
    }
  });

  app.post('/oauth/authorize/decision', async (request, reply) => {
    const form = (typeof request.body === 'object' && request.body ? request.body : {}) as Record<string, unknown>;
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const outcome = decide(sb, {
      requestId: text('request_id'),
      decision: text('decision'),
      email: text('email'),
      password: text('password'),
    });
    switch (outcome.kind) {
      case 'page':
        return html(reply, outcome.status, errorPage(outcome.title, outcome.message));
      case 'redirect':
        return redirect(reply, outcome.location);
      case 'retry':
        return html(reply, 401, signInPage(outcome.request, outcome.client, { error: outcome.message, email: outcome.email }));
      case 'refused':
        return html(reply, 403, refusedPage(outcome.request, outcome.title, outcome.message));
    }
  });
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);
}

/** 302 keeps the browser's GET; the app's callback reads code and state from the query. */
function redirect(reply: FastifyReply, location: string) {
  return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(location, 302);
}
