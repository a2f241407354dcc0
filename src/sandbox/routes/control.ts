/**
 * Sandbox-only control endpoints under /_sandbox (not part of the API):
 * moving the clock so tests can expire codes and cursors, and reading the
 * seeded credentials. Documented in docs/sandbox.md.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { ProblemError } from '../problem.js';
import { fieldsOf } from '../http/body-shape.js';
import { checkControlRequest } from '../http/control.js';

/**
 * How far the clock may be moved: a year short of the last moment an RFC 3339 timestamp (a
 * four-digit year) can name, since the clock goes on running after the move.
 */
const LATEST_MS = Date.UTC(9999, 0, 1);

export function registerControlRoutes(app: FastifyInstance, sb: SandboxContext): void {
  app.post('/_sandbox/clock', async (request) => {
    checkControlRequest(request, fieldsOf('advance_seconds'));
    const body = (request.body ?? {}) as { advance_seconds?: unknown };
    const seconds = Number(body.advance_seconds);
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new ProblemError(400, 'invalid_request', 'advance_seconds must be a number ≥ 0.');
    }
    // Past the year 9999 no timestamp is RFC 3339 (and past ~275,760 no Date exists): every write
    // after such a move answered 500 until a restart.
    if (seconds > 0 && sb.clock.now() + seconds * 1000 > LATEST_MS) {
      throw new ProblemError(400, 'invalid_request', `advance_seconds would move the clock past ${new Date(LATEST_MS).toISOString()}, the latest it goes; the sandbox's times stay RFC 3339.`);
    }
    sb.clock.advance(seconds * 1000);
    return { now: sb.clock.iso() };
  });

  app.get('/_sandbox/credentials', async (request) => {
    checkControlRequest(request);
    return sb.credentials ?? {};
  });
}
