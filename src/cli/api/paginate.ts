/**
 * Cursor pagination (api-spec §4.12) as an async stream: at most two pages
 * in memory (the one being consumed and the next), records handed over as
 * they arrive, stopping when the caller has enough (`limit`) or breaks out.
 *
 * The next page is requested as soon as a page arrives, before the caller
 * has written it out, so network and server time overlap with formatting
 * and writing. Still one request at a time: the next page's cursor comes in
 * the current page.
 *
 * Three views of the same stream (pages.ts): records, pages of records, and
 * JSON Lines chunks. The last never parses a record (json-page.ts), which is
 * what `--json` output reads.
 */
import type { Page } from '../../contract/api.js';
import { LIMITS } from '../../contract/api.js';
import type { Query } from './query.js';
import { flattenPages, type JsonLinesChunk, type Paged } from './pages.js';
import { jsonLinesInPlace, splitListBody } from './json-page.js';
import { listOf, optionalNested, shapeProblem, type Shape } from './answer-shape.js';
import { answerError, endlessList, wrongShape } from './not-the-api.js';
import { parseBody } from './parse-body.js';

export interface PaginateOptions {
  /** Stop after this many records (undefined: all). */
  limit?: number;
  /** Start from this cursor (resuming). */
  after?: string;
  signal?: AbortSignal;
  /** Called with each page's next cursor once its records are consumed, e.g. to remember where a run left off. */
  onCursor?: (cursor: string | null) => void;
}

/** A list of records of one shape (shapes.ts): each record of each page is checked before it is shown. */
export interface ListOptions<T> extends PaginateOptions {
  shape: Shape<T>;
}

export function paginate<T>(
  client: PageSource,
  path: string,
  query: Query,
  options: ListOptions<T>,
): AsyncGenerator<T> & Paged<T> {
  const cut = { more: false };
  // Records are numbered across pages (pages come one at a time, in order), so an error can say which.
  let seen = 0;
  const parsed: FetchPage<T[]> = async (source, at, q, signal) => {
    const page = await parsedPage(source, at, q, signal, options.shape, seen);
    seen += page.count;
    return page;
  };
  return flattenPages(
    () => walkPages(client, path, query, options, parsed, cut),
    () => walkPages(client, path, query, options, jsonLinesPage, cut),
    () => cut.more,
  );
}

/** One fetched page, cut down to `keep` records. */
interface Fetched<P> {
  count: number;
  nextCursor: string | null;
  hasMore: boolean;
  take(keep: number): P;
}

/** What walking pages needs of the ApiClient (whose paginate() calls this module). */
export interface PageSource {
  readonly baseUrl: URL;
  request<T>(method: string, path: string, options?: { query?: Query; signal?: AbortSignal; rawBody?: boolean; shape?: Shape<T> }): Promise<RawAnswer<T>>;
}

/** What PageSource.request answers with (the ApiClient's ApiResponse). */
interface RawAnswer<T> {
  data: T;
  status: number;
  requestId: string | null;
  headers: Record<string, string>;
}

type FetchPage<P> = (client: PageSource, path: string, query: Query, signal: AbortSignal) => Promise<Fetched<P>>;

async function parsedPage<T>(client: PageSource, path: string, query: Query, signal: AbortSignal, shape: Shape<T>, before: number): Promise<Fetched<T[]>> {
  // The client checks the envelope, as it checks any answer; the records are checked here, numbered.
  const { data: page, status, requestId } = await client.request<Page<T>>('GET', path, { query, signal, shape: LIST_PAGE });
  for (let i = 0; i < page.data.length; i++) {
    const problem = shapeProblem(page.data[i], shape.fields);
    if (problem) throw wrongShape(`GET ${path}`, status, `a list whose record ${before + i + 1} is not ${shape.name}: ${problem}`, requestId, client.baseUrl);
  }
  return {
    count: page.data.length,
    nextCursor: page.pagination?.next_cursor ?? null,
    hasMore: Boolean(page.pagination?.has_more),
    take: (keep) => (keep < page.data.length ? page.data.slice(0, keep) : page.data),
  };
}

async function jsonLinesPage(client: PageSource, path: string, query: Query, signal: AbortSignal): Promise<Fetched<JsonLinesChunk>> {
  const response = await client.request<Buffer>('GET', path, { query, signal, rawBody: true });
  const body = response.data;
  const split = splitListBody(body);
  if (!split) return fallbackJsonLines(client, path, response);
  const wrong = answerError(`GET ${path}`, response.status, response.headers['content-type'], response.requestId, client.baseUrl, split.rest, LIST_ENVELOPE);
  if (wrong) throw wrong;
  const pagination = split.rest.pagination as Page<unknown>['pagination'] | undefined;
  return {
    count: split.records.length,
    nextCursor: pagination?.next_cursor ?? null,
    hasMore: Boolean(pagination?.has_more),
    take: (keep) => {
      const records = keep < split.records.length ? split.records.slice(0, keep) : split.records;
      return { lines: jsonLinesInPlace(body, records), count: records.length };
    },
  };
}

/**
 * A body the splitter did not recognise: parse it the ordinary way, which explains what is wrong.
 * Records go out as the service sent them (their fields are not checked on this path, which never
 * parses them when it can help it), but each must be a JSON object, as the splitter's are.
 */
function fallbackJsonLines(client: PageSource, path: string, response: RawAnswer<Buffer>): Fetched<JsonLinesChunk> {
  const page = parseBody(response.data, response.headers['content-type']);
  const wrong = answerError(`GET ${path}`, response.status, response.headers['content-type'], response.requestId, client.baseUrl, page, LIST_PAGE_OF_OBJECTS);
  if (wrong) throw wrong;
  const { data, pagination } = page as Page<unknown>;
  return {
    count: data.length,
    nextCursor: pagination?.next_cursor ?? null,
    hasMore: Boolean(pagination?.has_more),
    take: (keep) => {
      const records = data.slice(0, keep);
      return { lines: Buffer.from(records.map((r) => JSON.stringify(r) + '\n').join('')), count: records.length };
    },
  };
}

/** The envelope of every list (api-spec.md §4.12); its records are checked against their own shape. */
const PAGINATION = optionalNested({ next_cursor: 'string?', has_more: 'boolean' });
const LIST_PAGE: Shape<Page<unknown>> = { name: 'a list page', fields: { data: 'array', pagination: PAGINATION } };
/** Pages read raw (the JSON Lines path): the envelope without its records, which go out unparsed; a page parsed whole, records that are objects. */
const LIST_ENVELOPE: Shape<unknown> = { name: LIST_PAGE.name, fields: { pagination: PAGINATION } };
const LIST_PAGE_OF_OBJECTS: Shape<unknown> = { name: LIST_PAGE.name, fields: { ...LIST_PAGE.fields, data: listOf({}) } };

async function* walkPages<P>(
  client: PageSource,
  path: string,
  query: Query,
  options: PaginateOptions,
  fetchPage: FetchPage<P>,
  cut: { more: boolean },
): AsyncGenerator<P> {
  let remaining = options.limit ?? Infinity;
  // Cancels a prefetch nobody will read (the caller stopped early or failed).
  const abandon = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, abandon.signal]) : abandon.signal;
  const request = (cursor: string | undefined): Promise<Fetched<P>> => {
    const pending = fetchPage(client, path, { ...query, 'page[limit]': Math.min(LIMITS.pageMax, remaining), 'page[after]': cursor }, signal);
    // Its failure is reported when it is awaited; until then it must not count as unhandled.
    pending.catch(() => {});
    return pending;
  };

  let next: Promise<Fetched<P>> | null = remaining > 0 ? request(options.after) : null;
  // A service that hands back a cursor it gave before would be walked for ever (--all, --follow).
  const cursors = new Set<string>(options.after ? [options.after] : []);
  try {
    while (next) {
      const page = await next;
      next = null;
      const keep = Math.min(page.count, remaining);
      remaining -= keep;
      const cursor = page.hasMore ? page.nextCursor : null;
      if (cursor && remaining > 0) {
        if (cursors.has(cursor)) throw endlessList(path, client.baseUrl);
        cursors.add(cursor);
        next = request(cursor);
      }
      // Stopped at the limit with records left in this page or a next one: the list was cut (Output says so).
      if (remaining <= 0) cut.more = keep < page.count || page.hasMore;
      if (keep > 0) yield page.take(keep);
      if (remaining <= 0) return;
      options.onCursor?.(page.nextCursor);
    }
  } finally {
    if (next) abandon.abort(Object.assign(new Error('page no longer needed'), { name: 'AbortError' }));
  }
}
