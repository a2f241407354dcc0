/**
 * Cursor pagination (api-spec §4.12) as an async stream: at most two pages
 * in memory (the one being consumed and the next), records handed over as
 * they arrive, stopping when the caller has enough (`limit`) or breaks out.
 *
 * The next page is requested as soon as a page arrives, before the caller
 * has written it out, so network and server time overlap with formatting
 * and writing. Still one request at a time: the next page's cursor comes in
 * the current page.
 */
import type { Page } from '../types/api.js';
import { LIMITS } from '../types/api.js';
import type { ApiClient, Query } from './client.js';
import { flattenPages, type Paged } from './pages.js';

export interface PaginateOptions {
  /** Stop after this many records (undefined: all). */
  limit?: number;
  /** Page size asked for; defaults to the service maximum when streaming everything. */
  pageSize?: number;
  /** Start from this cursor (resuming). */
  after?: string;
  signal?: AbortSignal;
  /** Called with each page's next cursor once its records are consumed, e.g. to remember where a run left off. */
  onCursor?: (cursor: string | null) => void;
}

export function paginate<T>(
  client: ApiClient,
  path: string,
  query: Query,
  options: PaginateOptions = {},
): AsyncGenerator<T> & Paged<T> {
  return flattenPages(() => pages<T>(client, path, query, options));
}

async function* pages<T>(client: ApiClient, path: string, query: Query, options: PaginateOptions): AsyncGenerator<T[]> {
  let remaining = options.limit ?? Infinity;
  const pageSize = options.pageSize ?? LIMITS.pageMax;
  // Cancels a prefetch nobody will read (the caller stopped early or failed).
  const abandon = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, abandon.signal]) : abandon.signal;
  const fetchPage = (cursor: string | undefined): Promise<Page<T>> => {
    const request = client.get<Page<T>>(path, { ...query, 'page[limit]': Math.min(pageSize, remaining), 'page[after]': cursor }, signal);
    // Its failure is reported when it is awaited; until then it must not count as unhandled.
    request.catch(() => {});
    return request;
  };

  let next: Promise<Page<T>> | null = remaining > 0 ? fetchPage(options.after) : null;
  try {
    while (next) {
      const page = await next;
      next = null;
      const data = page.data.length > remaining ? page.data.slice(0, remaining) : page.data;
      remaining -= data.length;
      const cursor = page.pagination.has_more ? page.pagination.next_cursor : null;
      if (cursor && remaining > 0) next = fetchPage(cursor);
      if (data.length) yield data;
      if (remaining <= 0) return;
      options.onCursor?.(page.pagination.next_cursor);
    }
  } finally {
    if (next) abandon.abort(Object.assign(new Error('page no longer needed'), { name: 'AbortError' }));
  }
}
