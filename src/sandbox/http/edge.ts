/**
 * What the sandbox accepts before any route sees a request, so that bad
 * input is a 4xx problem and never a 500 (which every client, msgctl
 * included, retries with the same key):
 *
 * - bodies: JSON only (415 otherwise; the form parser lives only on the
 *   OAuth endpoints), at most 1 MB (routes may allow more), nested at most
 *   MAX_JSON_DEPTH levels (checked by a scan before parsing: no recursion);
 * - query strings: malformed percent-encoding or an empty name is 400;
 * - headers over the server's limit: 431 as problem+json with a request id;
 * - /_sandbox/*: only for a loopback Host with the sandbox's own port.
 */
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from './problem.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;
const MALFORMED_QUERY = Symbol('malformed query string');

/** True when arrays/objects in `text` nest deeper than `max` (strings are skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** JSON bodies only, depth-limited; text/plain is no longer parsed (it was a third answer to one mistake). */
export function installBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new ProblemError(400, 'invalid_request', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}

/** For the OAuth endpoints only: token and revocation requests are form-encoded (RFC 6749), as is the approve page. */
export function addFormParser(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

/**
 * Query strings decoded strictly: `+` is a space, `%XX` must be valid UTF-8
 * percent-encoding, and a parameter needs a name. Anything else marks the
 * query malformed, and rejectMalformedQuery answers 400 (a lenient parser
 * turned `?%=1` into "no filter" and served the whole roster).
 */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  if (!text) return out;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeQueryPart(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decodeQueryPart(part.slice(eq + 1));
    if (name === null || value === null) return markMalformed(out, `"${part.slice(0, 40)}" is not valid percent-encoding`);
    if (name === '') return markMalformed(out, 'a parameter has no name');
    const previous = out[name];
    out[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return out;
}

/** `+` as a space, then percent-decoded; null when that is not valid UTF-8 percent-encoding. */
function decodeQueryPart(part: string): string | null {
  // Most parts (page[limit], 50) have nothing to decode: no replace and decode passes for them.
  if (!part.includes('%') && !part.includes('+')) return part;
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

function markMalformed(out: Record<string, string | string[]>, why: string): Record<string, string | string[]> {
  Object.defineProperty(out, MALFORMED_QUERY, { value: why, enumerable: false });
  return out;
}

export function rejectMalformedQuery(request: FastifyRequest): void {
  const why = (request.query as Record<symbol, string> | undefined)?.[MALFORMED_QUERY];
  if (why) throw new ProblemError(400, 'invalid_request', `Malformed query string: ${why}.`);
}

/**
 * Errors Node's HTTP parser raises before fastify sees a request. Oversized
 * headers (the URL counts: a long `q`) get 431 as problem+json; other
 * garbage gets 400. Both carry an X-Request-Id like every other answer.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const id = randomUUID();
  const problem = tooLarge
    ? new ProblemError(431, 'invalid_request',
      'The request line and headers are over 16 KB. A long search (q) does not fit in a URL: shorten it or split it into several searches.')
    : new ProblemError(400, 'invalid_request', 'Malformed HTTP request.');
  const body = JSON.stringify(problem.toBody(id));
  socket.end(
    `HTTP/1.1 ${problem.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `X-Request-Id: ${id}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * /_sandbox/* hands out credentials and moves the clock: answer only a
 * loopback Host naming this sandbox's port, so a web page the developer
 * visits cannot reach it by DNS rebinding (its Host would be its own name).
 */
export function requireLoopbackHost(request: FastifyRequest, port: number): void {
  const host = (request.headers.host ?? '').toLowerCase();
  const allowed = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!allowed.includes(host)) {
    throw new ProblemError(403, 'forbidden_host', `/_sandbox endpoints answer only to Host 127.0.0.1:${port} or localhost:${port}.`);
  }
}
