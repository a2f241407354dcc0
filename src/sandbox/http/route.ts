/**
 * How sandbox API routes are declared: method, path, which credentials and
 * scope they accept, whether they are Idem, and a handler that returns a
 * status and body. Authentication, scopes, idempotency and problem rendering
 * happen here once, so route files hold only the endpoint's own rules.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { ProblemError } from '../problem.js';
import { findPrincipal, type Principal } from '../domain/principal.js';
import { fingerprint, withIdempotency } from './idempotency.js';
import { checkRateLimit } from './rate-limit.js';
import { checkBodyShape, type BodyShape } from './body-shape.js';
import { checkPathParams, checkQuery, PAGE_PARAMETERS, readPage } from './request-parts.js';
import type { PageRequest } from '../domain/paging.js';

export interface ApiRequest<Body = any> {
  principal: Principal;
  /** Path parameters; ids checked as UUIDs and lower-cased (request-parts.ts). */
  params: Record<string, string>;
  /** One value per parameter the route declares (`query`); nothing else gets this far. */
  query: Readonly<Record<string, string | undefined>>;
  /** A paged route's page[limit] and page[after]; the first page of 50 elsewhere. */
  page: PageRequest;
  body: Body;
  headers: FastifyRequest['headers'];
  requestId: string;
  raw: FastifyRequest;
}

export interface ApiResult {
  status: number;
  body?: unknown;
  /** The body as JSON text already (instead of `body`; reads only: an idempotency record keeps `body`). */
  json?: string;
  headers?: Record<string, string>;
}

export interface ApiRouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** Path under /v1, e.g. '/patients/:patientId'. */
  url: string;
  /** Required scope, or null for any authenticated caller. */
  scope: string | null;
  /** Which credential kinds may call (default both). An API key elsewhere gets 403 oauth_required. */
  credentials?: ('api_key' | 'oauth')[];
  /** 'legacy' = the older conversation-scoped endpoints (§4.9): 401 `unauthorized` instead of `invalid_token`. */
  style?: 'v1' | 'legacy';
  idempotent?: boolean;
  /** The query parameters the endpoint knows (any other, or one given twice, is 400). Default: none. */
  query?: readonly string[];
  /** A list: page[limit] and page[after] are known and read into `page`. */
  paged?: boolean;
  /** Path parameters that are text, not UUIDs (every other `:name` must be a UUID, else 400). */
  textParams?: readonly string[];
  /**
   * The body's known fields and which may be null (body-shape.ts): required on every
   * POST, PATCH and PUT, so no endpoint can skip the shared unknown-field and null rules.
   */
  body?: BodyShape;
  /** Bytes; default 1 MB (edge.ts). */
  bodyLimit?: number;
  handler: (req: ApiRequest, sb: SandboxContext) => ApiResult | Promise<ApiResult>;
}

export function apiRoute(app: FastifyInstance, sb: SandboxContext, spec: ApiRouteSpec): void {
  const takesBody = spec.method === 'POST' || spec.method === 'PATCH' || spec.method === 'PUT';
  if (takesBody && !spec.body) throw new Error(`${spec.method} /v1${spec.url} declares no body shape.`);
  const knownQuery = new Set([...(spec.query ?? []), ...(spec.paged ? PAGE_PARAMETERS : [])]);
  app.route({
    method: spec.method,
    url: `/v1${spec.url}`,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    // Before the body is read: an unauthenticated caller must not make the sandbox parse anything.
    // Callback style: an async hook costs a promise and a microtask per request (a throw still answers).
    onRequest: (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      (request as FastifyRequest & { principal?: Principal }).principal = authenticate(sb, request, spec);
      done();
    },
    handler: (request: FastifyRequest, reply: FastifyReply) => {
      const principal = (request as FastifyRequest & { principal?: Principal }).principal ?? authenticate(sb, request, spec);
      checkRateLimit(sb, principal.id);
      const query = checkQuery(request.query as Record<string, string | string[]>, knownQuery);
      const params = checkPathParams(request.params as Record<string, string>, spec.textParams);
      if (spec.body) checkBodyShape(request.body, spec.body);
      const apiRequest: ApiRequest = {
        principal,
        params,
        query,
        page: readPage(query),
        body: request.body ?? {},
        headers: request.headers,
        requestId: request.id,
        raw: request,
      };
      const holdMs = request.sandboxHoldMs;
      if (spec.method === 'GET' && !holdMs) {
        // A read with a synchronous handler is answered in this turn: no promise hops per GET.
        const result = sb.store.reading(() => spec.handler(apiRequest, sb));
        if (result instanceof Promise) return result.then((r) => answer(reply, r));
        answer(reply, result);
        return undefined;
      }
      return answerLater(request, reply, apiRequest, principal, holdMs);
    },
  });

  /** Writes, and reads held by a fault: idempotency, the hold, and durability before the answer. */
  async function answerLater(request: FastifyRequest, reply: FastifyReply, apiRequest: ApiRequest, principal: Principal, holdMs: number) {
    const run = async () => {
      if (holdMs) await new Promise((r) => setTimeout(r, holdMs));
      return spec.method === 'GET' ? sb.store.reading(() => spec.handler(apiRequest, sb)) : spec.handler(apiRequest, sb);
    };
    // Idempotency keys belong to the organization (as with Stripe's per-account keys), not to
    // one credential: a retry after an OAuth refresh or a key rotation must still replay.
    const result = spec.idempotent
      ? await withIdempotency(
          sb,
          principal.orgId,
          headerValue(request.headers['idempotency-key']),
          fingerprint(spec.method, request.url.split('?')[0]!, request.body ?? null),
          run,
        )
      : await run();
    // With --data, a write is on disk before it is confirmed: a crash after a 2xx loses nothing.
    if (spec.method !== 'GET') await sb.durable?.();
    return answer(reply, result);
  }
}

function answer(reply: FastifyReply, result: ApiResult): FastifyReply {
  if (result.headers) for (const [k, v] of Object.entries(result.headers)) reply.header(k, v);
  reply.code(result.status);
  if (result.json === undefined && result.body === undefined) return reply.send();
  const text = result.json ?? JSON.stringify(result.body);
  // Text of one-byte characters (Latin-1: most answers) goes as a string: Node encodes it with the
  // headers into one write, from a stack buffer for a page of up to ~16 KB. A Buffer per answer
  // costs more than that encoding (an ArrayBuffer allocated and later collected: ~20 µs for a
  // 14 KB page of patients). Two-byte text (a message body with an emoji or CJK) is encoded once
  // as bytes: as a string fastify would measure its UTF-8 length and the socket encode it again.
  // A long answer (a page of messages runs to ~60 KB) goes as bytes too: past Node's stack buffer the
  // string is encoded into a fresh buffer anyway, after fastify has measured it.
  const asString = text.length <= STRING_ANSWER_MAX && !TWO_BYTE.test(text);
  return reply.type('application/json; charset=utf-8').send(asString ? text : Buffer.from(text));
}

/** A character outside Latin-1, which makes a JS string two-byte (the scan costs about 1 µs for 14 KB). */
const TWO_BYTE = /[^\u0000-\u00ff]/;
const STRING_ANSWER_MAX = 16 * 1024;

function authenticate(sb: SandboxContext, request: FastifyRequest, spec: ApiRouteSpec): Principal {
  const unauthorizedCode = spec.style === 'legacy' ? 'unauthorized' : 'invalid_token';
  const header = headerValue(request.headers.authorization);
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) {
    throw new ProblemError(401, unauthorizedCode, 'Missing bearer credential: send Authorization: Bearer <token>.', [], {}, {
      'www-authenticate': 'Bearer',
    });
  }
  // A read: the key or token rows are not remembered for in-place changes (no weak reference,
  // no end-of-turn compare and write-back on every request).
  const principal = sb.store.reading(() => findPrincipal(sb, match[1]!));
  if (!principal) {
    throw new ProblemError(401, unauthorizedCode, 'The API key or access token is invalid, expired or revoked.', [], {}, {
      'www-authenticate': 'Bearer error="invalid_token"',
    });
  }
  const allowed = spec.credentials ?? ['api_key', 'oauth'];
  if (!allowed.includes(principal.kind)) {
    throw new ProblemError(403, 'oauth_required', 'This endpoint acts as a person: use an org admin\'s OAuth access token, not an API key.');
  }
  if (spec.scope && !principal.scopes.has(spec.scope)) {
    throw new ProblemError(403, 'insufficient_scope', `This credential lacks the "${spec.scope}" scope.`, [], { required_scope: spec.scope });
  }
  return principal;
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
