/**
 * The one request rule (request-parts.ts, body-shape.ts) for the control
 * endpoints under /_sandbox, which are plain fastify routes, not apiRoute's:
 * no query parameters, and only the body fields each one names.
 */
import type { FastifyRequest } from 'fastify';
import { checkBodyShape, type BodyShape } from './body-shape.js';
import { checkQuery } from './request-parts.js';

const NONE: ReadonlySet<string> = new Set();

export function checkControlRequest(request: FastifyRequest, body: BodyShape = {}): void {
  checkQuery(request.query as Record<string, string | string[]>, NONE);
  checkBodyShape(request.body, body);
}
