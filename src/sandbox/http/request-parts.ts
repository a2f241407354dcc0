/**
 * The rule every /v1 endpoint applies to its query string and path, before
 * its own code runs (docs/sandbox.md "One request rule"):
 *
 * - a query parameter the endpoint does not know is 400 `invalid_request`
 *   naming it: a misspelt filter (`?mrnn=A-1001`) must never be read as "no
 *   filter" and answer with the whole roster;
 * - a known parameter given twice is 400 too: which of two values the caller
 *   meant is a guess;
 * - `page[limit]` and `page[after]` are known to every list and read here
 *   into a PageRequest, so the domain pages without reading query strings;
 * - a path id that is not a UUID is 400 (the spec types every path id as a
 *   UUID but the import's), before any lookup: a 404 would say "no such
 *   record" to a request that could not name one.
 *
 * What the endpoint receives is then one string per known parameter.
 */
import { LIMITS } from '../../contract/api.js';
import type { FieldError } from '../../contract/api.js';
import type { PageRequest } from '../domain/paging.js';
import { problems } from '../problem.js';
import { looksLikeUuid } from '../validation/formats.js';

export const PAGE_PARAMETERS = ['page[limit]', 'page[after]'] as const;

const FIRST_PAGE: PageRequest = Object.freeze({ limit: LIMITS.pageDefault, after: null });

/**
 * The query as one string per parameter, or a 400 listing every unknown or
 * repeated parameter (each in `field_errors`, the first in `parameter`).
 */
export function checkQuery(query: Record<string, string | string[]>, known: ReadonlySet<string>): Record<string, string> {
  let errors: FieldError[] | undefined;
  for (const name in query) {
    if (!known.has(name)) {
      (errors ??= []).push({
        path: name,
        code: 'unknown_parameter',
        message: `${quoted(name)} is not a parameter of this endpoint${known.size ? ` (it takes ${[...known].join(', ')})` : ' (it takes none)'}; check its spelling.`,
      });
    } else if (Array.isArray(query[name])) {
      errors ??= [];
      errors.push({ path: name, code: 'repeated_parameter', message: `${quoted(name)} is given ${query[name]!.length} times; give it once.` });
    }
  }
  if (errors) {
    const detail = errors.length === 1 ? errors[0]!.message : `${errors.map((e) => e.message).join(' ')}`;
    throw problems.badParameter(errors[0]!.path, detail, errors);
  }
  return query as Record<string, string>;
}

/** page[limit] per §4.12 (default 50, a whole number 1..100, anything else 400) and page[after]. */
export function readPage(query: Record<string, string>): PageRequest {
  const rawLimit = query['page[limit]'];
  const after = query['page[after]'] || null;
  if (rawLimit === undefined || rawLimit === '') return after === null ? FIRST_PAGE : { limit: LIMITS.pageDefault, after };
  const limit = Number(rawLimit);
  if (!/^\d+$/.test(rawLimit) || !Number.isInteger(limit) || limit < 1 || limit > LIMITS.pageMax) {
    throw problems.badParameter('page[limit]', `page[limit] must be a whole number from 1 to ${LIMITS.pageMax} (got ${quoted(rawLimit)}).`);
  }
  return { limit, after };
}

/** Path ids: UUIDs (lower-cased) unless the endpoint names a parameter as text; 400 naming the parameter otherwise. */
export function checkPathParams(params: Record<string, string>, textParams: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in params) {
    const value = params[name] ?? '';
    if (textParams?.includes(name)) {
      out[name] = value;
      continue;
    }
    if (!looksLikeUuid(value)) throw problems.badParameter(name, `${name} must be a UUID (got ${quoted(value)}).`);
    out[name] = value.toLowerCase();
  }
  return out;
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
