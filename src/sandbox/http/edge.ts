/**
 * What the sandbox accepts before any route sees a request, so that bad
 * input is a 4xx problem and never a 500 (which every client, msgctl
 * included, retries with the same key), and every refusal uses a status of
 * api-spec §7.2 (400 `invalid_request` with a detail naming the limit, where
 * HTTP would have 413, 415 or 431) as problem+json with an X-Request-Id:
 *
 * - bodies: JSON only (the form parser lives only on the OAuth endpoints), at
 *   most 1 MB (routes may allow more), nested at most MAX_JSON_DEPTH levels
 *   (checked by a scan before parsing: no recursion), no name twice in an object;
 * - query strings: malformed percent-encoding or an empty name is 400;
 * - request line and headers over HEADER_LIMIT_BYTES, a method HTTP does not
 *   define, garbage: 400 written on the socket by clientErrorHandler;
 * - CONNECT (a tunnel, which Node never hands to fastify): 400;
 * - /_sandbox/*: only for a loopback Host with the sandbox's own port.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '../problem.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Node's default --max-http-header-size: the request line (so a long `q`) and headers together. */
export const HEADER_LIMIT_BYTES = 16 * 1024;
export const MAX_JSON_DEPTH = 64;

const LIMITS_DETAIL = {
  body: 'The request body is over the limit: 1 MB for every request but POST /patient-imports, which takes 16 MB.',
  json: 'Send the body as JSON with Content-Type: application/json.',
  headers:
    'The request line and headers are over 16 KB. A long search (q) does not fit in a URL: shorten it or split it into several searches.',
};

/**
 * The problem for an error fastify raised before a handler ran (its own 4xx
 * statuses, 413 and 415 among them), or null for anything else (a 500).
 */
export function edgeProblem(error: { statusCode?: number; code?: string; message: string }): ProblemError | null {
  if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ProblemError(400, 'invalid_request', LIMITS_DETAIL.body);
  if (error.statusCode === 415 || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new ProblemError(400, 'invalid_request', LIMITS_DETAIL.json);
  if (error.code?.startsWith('FST_ERR_CTP_') || (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)) {
    return new ProblemError(400, 'invalid_request', `Malformed request: ${error.message}`);
  }
  return null;
}
const MALFORMED_QUERY = Symbol('malformed query string');

/** What a scan of a JSON text found before it is parsed. */
export interface JsonScan {
  /** Arrays/objects nest deeper than the limit (strings are skipped). */
  tooDeep: boolean;
  /** JSON Pointers of names given twice in one object (`{"body": "a", "body": "b"}`), first occurrence of each. */
  repeated: string[];
}

/**
 * One pass over a JSON text: how deep it nests (checked before parsing, so
 * nothing later recurses without bound) and which names an object gives twice,
 * which JSON.parse would silently settle by keeping the last. Names are compared
 * as decoded (`"a"` and `"\u0061"` are one name). On text that is not JSON the
 * result means nothing; the parse then fails.
 */
export function scanJson(text: string, maxDepth: number): JsonScan {
  const repeated: string[] = [];
  // One frame per open object or array: its names so far (objects), its element index (arrays).
  const frames: { names: Set<string> | null; name: string; index: number; expectName: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) {
          escaped = true;
          i++;
        } else if (d === 34) break;
      }
      const top = frames[frames.length - 1];
      if (top?.names && top.expectName) {
        let name = text.slice(start + 1, i);
        if (escaped) {
          try {
            name = JSON.parse(text.slice(start, i + 1)) as string;
          } catch {
            return { tooDeep: false, repeated };
          }
        }
        if (top.names.has(name)) repeated.push(pointer(frames, name));
        else top.names.add(name);
        top.name = name;
        top.expectName = false;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (frames.length >= maxDepth) return { tooDeep: true, repeated };
      frames.push({ names: c === 123 ? new Set() : null, name: '', index: 0, expectName: c === 123 });
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      frames.pop();
    } else if (c === 44 /* , */) {
      const top = frames[frames.length - 1];
      if (top?.names) top.expectName = true;
      else if (top) top.index++;
    }
  }
  return { tooDeep: false, repeated };
}

/** RFC 6901 pointer to `name` inside the innermost open object. */
function pointer(frames: { names: Set<string> | null; name: string; index: number }[], name: string): string {
  let path = '';
  for (let f = 0; f < frames.length - 1; f++) {
    const frame = frames[f]!;
    path += '/' + (frame.names ? escapePointer(frame.name) : String(frame.index));
  }
  return `${path}/${escapePointer(name)}`;
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

const REPEATED_FIELDS = Symbol('names given twice in one object');

/** JSON Pointers of the names a parsed body gave twice (body-shape.ts refuses them with the other field problems). */
export function repeatedFieldsOf(body: unknown): readonly string[] {
  return (body !== null && typeof body === 'object' && (body as Record<symbol, string[]>)[REPEATED_FIELDS]) || [];
}

/** Strict: a byte sequence that is not UTF-8 throws. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** JSON bodies only, UTF-8, depth-limited, names given twice marked; text/plain is not parsed (it was a third answer to one mistake). */
export function installBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
    // JSON is UTF-8 (RFC 8259 §8.1): other bytes, or another charset, are refused, not decoded
    // with U+FFFD in their place and stored ("caf\xe9" was kept as "caf\uFFFD").
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8' && charset !== 'us-ascii') {
      done(new ProblemError(400, 'invalid_request', `The body is JSON, which is UTF-8: charset=${charset} is not accepted. ${LIMITS_DETAIL.json}`), undefined);
      return;
    }
    let body: string;
    try {
      body = UTF8.decode(bytes as Buffer);
    } catch {
      done(new ProblemError(400, 'invalid_request', 'The body is not UTF-8 text: JSON is sent as UTF-8 (a file saved as Latin-1 or Windows-1252 is not).'), undefined);
      return;
    }
    const scan = scanJson(body, MAX_JSON_DEPTH);
    if (scan.tooDeep) {
      done(new ProblemError(400, 'invalid_request', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    if (scan.repeated.length === 0) {
      parseJson(request, body, done);
      return;
    }
    parseJson(request, body, (error, parsed) => {
      if (!error && parsed !== null && typeof parsed === 'object') {
        Object.defineProperty(parsed, REPEATED_FIELDS, { value: scan.repeated, enumerable: false });
      }
      done(error, parsed);
    });
  });
}

const REPEATED_FORM_FIELD = Symbol('a form field given twice');

/**
 * For the OAuth endpoints only: token and revocation requests are form-encoded (RFC 6749), as is
 * the approve page. A field given twice is marked (repeatedFormField): RFC 6749 §3.1 and §3.2 say
 * a parameter must not be included more than once, so the endpoint refuses it.
 */
export function addFormParser(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const form: Record<string, string> = {};
    let repeated: string | undefined;
    for (const [name, value] of new URLSearchParams(body as string)) {
      if (Object.hasOwn(form, name)) repeated ??= name;
      form[name] = value;
    }
    if (repeated !== undefined) Object.defineProperty(form, REPEATED_FORM_FIELD, { value: repeated, enumerable: false });
    done(null, form);
  });
}

/** The first name a parsed form gave twice, if any. */
export function repeatedFormField(form: unknown): string | undefined {
  return form !== null && typeof form === 'object' ? (form as Record<symbol, string | undefined>)[REPEATED_FORM_FIELD] : undefined;
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
 * Errors Node's HTTP parser raises before fastify sees a request: oversized
 * headers (the URL counts: a long `q`), a method HTTP does not define, a
 * request that never finished arriving, garbage. Each is a 400 problem with
 * an X-Request-Id like every other answer (Node's own would be 431, 408 or a
 * closed socket), then the connection closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  const detail =
    error.code === 'HPE_HEADER_OVERFLOW' ? LIMITS_DETAIL.headers
    : error.code === 'HPE_INVALID_METHOD' ? 'The request method is not one HTTP defines; the API takes GET, POST, PATCH and DELETE.'
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT' ? 'The request did not arrive in time.'
    : 'Malformed HTTP request.';
  answerOnSocket(socket, detail);
}

/**
 * An `Expect:` other than 100-continue: Node would answer a bare 417 without a body or a request
 * id; a 400 problem like every other refusal instead, then the connection closes.
 */
export function refuseExpectation(request: IncomingMessage): void {
  answerOnSocket(request.socket, `Expect: ${String(request.headers.expect).slice(0, 100)} is not supported (only 100-continue).`);
}

/** CONNECT asks the sandbox to be a proxy, which it is not: a 400 problem, then the connection closes. */
export function refuseConnect(request: IncomingMessage, socket: Duplex): void {
  answerOnSocket(socket, `The sandbox is not a proxy: CONNECT ${String(request.url).slice(0, 100)} is not supported. Send API requests to /v1 directly.`);
}

function answerOnSocket(socket: Duplex, detail: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const id = randomUUID();
  const body = JSON.stringify(new ProblemError(400, 'invalid_request', detail).toBody(id));
  socket.end(
    'HTTP/1.1 400 Bad Request\r\n' +
      'Content-Type: application/problem+json\r\n' +
      `X-Request-Id: ${id}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2): a 400 problem without one. */
export function requireHostHeader(request: FastifyRequest): void {
  if (request.raw.httpVersion === '1.1' && !request.headers.host) {
    throw new ProblemError(400, 'invalid_request', 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2).');
  }
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
