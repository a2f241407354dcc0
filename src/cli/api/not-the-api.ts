/**
 * Errors for a 2xx answer that is not the Messaging Service API's: not JSON at all, or JSON of
 * the wrong shape. Both name the request and its request id, and ask whether the base URL is
 * the API's (the usual cause: a web server, a proxy, a captive portal, another JSON service).
 */
import { CliError } from '../errors.js';
import { shapeProblem, type Shape } from './answer-shape.js';

/**
 * The two checks every 2xx answer meets (client.ts), for the client and for the answers read raw
 * and parsed where they are used (a list page as JSON Lines, a large import): JSON of the API's
 * kind (an object, an array, or no body), then `shape` when given. Null when the answer passes;
 * nothing is allocated then (it runs for every row of a batch).
 */
export function answerError(request: string, status: number, contentType: string | undefined, requestId: string | null, baseUrl: URL, payload: unknown, shape?: Shape<unknown>): NotTheApiError | null {
  if (payload !== null && typeof payload !== 'object') return notTheApi(request, status, contentType, requestId, baseUrl);
  const problem = shape ? shapeProblem(payload, shape.fields) : null;
  return problem === null ? null : wrongShape(request, status, `JSON that is not ${shape!.name}: ${problem}`, requestId, baseUrl);
}

/**
 * A 2xx answer that is not the API's: a web page, a proxy's or a captive portal's, or JSON text
 * that does not parse. Without this, a command printed an empty record and exited 0, or failed
 * with a TypeError of its own (`msgctl org` with the base URL at a web server).
 */
export function notTheApi(request: string, status: number, contentType: string | undefined, requestId: string | null, baseUrl: URL): NotTheApiError {
  // The server's words, shortened (a header can run to 16 KB); the error renderer escapes them.
  const type = contentType?.split(';')[0]?.trim().slice(0, 80);
  const what = type?.includes('json') ? 'text that is not valid JSON' : `a ${type || 'body without a content type'} document`;
  return new NotTheApiError(`${request} answered HTTP ${status} with ${what}, not the JSON the Messaging Service API answers with${requestIdSuffix(requestId)}.`, requestId, [baseUrlHint(baseUrl)]);
}

/**
 * A 2xx JSON answer of the wrong shape (answer-shape.ts). `answer` says what came instead of
 * what, and the first field that is wrong, in msgctl's words (the contract's field names, JSON
 * type names), so nothing of the answer itself is repeated.
 */
export function wrongShape(request: string, status: number, answer: string, requestId: string | null, baseUrl: URL): NotTheApiError {
  return new NotTheApiError(`${request} answered HTTP ${status} with ${answer}${requestIdSuffix(requestId)}. That is not an answer of the Messaging Service API.`, requestId, [baseUrlHint(baseUrl)]);
}

/** A write whose answer was not the API's may have been made all the same: said first, before anything is run again. */
export const MAY_HAVE_TAKEN_EFFECT = 'The change may have been made all the same: check before running the command again.';

/**
 * Exit 1, like any failure. Its own class so `--json` errors carry the request id and a code of
 * their own, and so a command can add what such an answer leaves unknown (a send may have gone
 * out all the same).
 */
export class NotTheApiError extends CliError {
  constructor(message: string, readonly requestId: string | null, hints: string[]) {
    super(message, undefined, hints);
    this.name = 'NotTheApiError';
  }
}

/** Pages whose next cursor is one the service gave before: the same pages again, for ever. */
export function endlessList(path: string, baseUrl: URL): NotTheApiError {
  return new NotTheApiError(`GET ${path} answered with a next-page cursor it had already given: msgctl stopped reading, as that list would never end.`, null, [baseUrlHint(baseUrl)]);
}

/** The server's request id in a message, shortened as the content type is (a header can run to 16 KB). */
export function requestIdSuffix(requestId: string | null): string {
  return requestId ? ` (request id ${requestId.length > 80 ? `${requestId.slice(0, 80)}…` : requestId})` : '';
}

function baseUrlHint(baseUrl: URL): string {
  return `Is the base URL right? It is ${baseUrl.origin}${baseUrl.pathname.replace(/\/$/, '')}; it should be the service's API root, ending in /v1 (--base-url, MSGCTL_BASE_URL or the profile's base_url).`;
}
