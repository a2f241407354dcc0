/**
 * The sandbox HTTP server: request ids on every response, fault injection
 * and problem+json errors for /v1, then every route module.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import { ProblemError } from '../problem.js';
import { parseChaos, rollChaos } from './chaos.js';
import { registerAllRoutes } from '../routes/index.js';
import { applyQueuedFault, type FaultState } from '../routes/faults.js';
import {
  BODY_LIMIT_BYTES,
  clientErrorHandler,
  HEADER_LIMIT_BYTES,
  edgeProblem,
  installBodyParsers,
  parseQueryString,
  refuseConnect,
  refuseExpectation,
  requireHostHeader,
  rejectMalformedQuery,
  requireLoopbackHost,
} from './edge.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a chaos or queued "reset" fault: answer nothing, drop the connection. */
    sandboxReset: boolean;
    /** Set by a queued "hold" fault: how long route.ts holds the request while it is in progress. */
    sandboxHoldMs: number;
  }
}

export async function buildApp(sb: SandboxContext, faults: FaultState): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    genReqId: () => randomUUID(),
    // 1 MB fits every request but an import (its route allows more); see edge.ts.
    bodyLimit: BODY_LIMIT_BYTES,
    // The documented 16 KB for the request line and headers, whatever NODE_OPTIONS says. A request
    // without Host reaches the hook below, which answers it as a problem with a request id (Node's
    // own answer was a bare 400 with neither).
    http: { maxHeaderSize: HEADER_LIMIT_BYTES, requireHostHeader: false },
    routerOptions: { querystringParser: parseQueryString },
    clientErrorHandler,
    // Keep-alive clients (the CLI's pool) should not see the server close idle sockets under them mid-request.
    keepAliveTimeout: 30_000,
    // Errors fastify raises before routing (a malformed URL) are problems with a request id too.
    frameworkErrors: (error, request, rawReply) => {
      const problem = new ProblemError(400, 'invalid_request', `Malformed request: ${error.message}`);
      (rawReply as unknown as FastifyReply)
        .code(400)
        .header('x-request-id', request.id)
        .type('application/problem+json')
        .send(JSON.stringify(problem.toBody(request.id)));
    },
  });
  const chaos = parseChaos(sb.options.chaos);
  app.decorateRequest('sandboxReset', false);
  app.decorateRequest('sandboxHoldMs', 0);

  installBodyParsers(app);

  // One callback-style hook for every request, not one per concern and not async: each hook is a
  // step of fastify's hook runner, and an async one a promise and a microtask, on every request.
  // A throw from a callback hook still becomes the error answer (fastify catches it). Order: the
  // request id, a Host at all (HTTP/1.1), the Host check of /_sandbox, then for /v1 a malformed query (400), the fault
  // queue (logs the request, may answer instead), chaos.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    requireHostHeader(request);
    const url = request.url;
    if (url.startsWith('/_sandbox/')) {
      requireLoopbackHost(request, request.socket.localPort ?? 0);
      rejectMalformedQuery(request);
    }
    if (!url.startsWith('/v1/')) return done();
    rejectMalformedQuery(request);
    applyQueuedFault(faults, request);
    if (!chaos) return done();
    applyChaos(chaos, request).then(() => done(), done);
  });

  // A "reset" lets the handler do its work, then drops the connection instead of answering.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.sandboxReset) {
      request.raw.socket.destroy();
    }
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError | ProblemError, request, reply) => {
    let problem = error instanceof ProblemError ? error : edgeProblem(error);
    if (!problem) {
      sb.options.log?.(`internal error on ${request.method} ${request.url}: ${(error as Error).stack}`);
      problem = new ProblemError(500, 'internal_error', 'The sandbox hit an unexpected error.');
    }
    for (const [k, v] of Object.entries(problem.headers)) reply.header(k, v);
    reply.code(problem.status).type('application/problem+json').send(JSON.stringify(problem.toBody(request.id)));
  });

  app.setNotFoundHandler((request, reply) => {
    const problem = new ProblemError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
    reply.code(404).type('application/problem+json').send(JSON.stringify(problem.toBody(request.id)));
  });

  if (sb.options.log) {
    app.addHook('onResponse', async (request, reply) => {
      sb.options.log!(`${request.method} ${request.url.split('?')[0]} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms ${request.id}`);
    });
  }

  await registerAllRoutes(app, sb, faults);
  // A CONNECT asks for a tunnel, which Node hands to this event, not to fastify: answer it too.
  app.server.on('connect', refuseConnect);
  app.server.on('checkExpectation', refuseExpectation);
  return app;
}

async function applyChaos(chaos: NonNullable<ReturnType<typeof parseChaos>>, request: FastifyRequest): Promise<void> {
  for (const outcome of rollChaos(chaos)) {
    if (outcome.kind === 'delay') await new Promise((r) => setTimeout(r, outcome.ms));
    else if (outcome.kind === 'status') {
      const code = { 429: 'rate_limited', 500: 'internal_error', 503: 'service_unavailable' }[outcome.status];
      throw new ProblemError(outcome.status, code, 'Injected by sandbox --chaos.', [], {}, outcome.status === 429 ? { 'retry-after': '1' } : {});
    } else if (outcome.kind === 'reset') {
      request.sandboxReset = true;
    }
  }
}
