/**
 * Cursor pagination (api-spec §4.12) as an async generator: one page in memory
 * at a time, records yielded as they arrive, stopping early when the caller
 * has enough (`limit`) or breaks out of its loop.
 */
import type { Page } from '../types/api.js';
import { LIMITS } from '../types/api.js';
import type { ApiClient, Query } from './client.js';

export interface PaginateOptions {
  /** Stop after this many records (undefined: all). */
  limit?: number;
  /** Page size asked for; defaults to the service maximum when streaming everything. */
  pageSize?: number;
  /** Start from this cursor (resuming). */
  after?: string;
  signal?: AbortSignal;
  /** Called with each page's next cursor, e.g. to remember where a --follow left off. */
  onCursor?: (cursor: string | null) => void;
}

export async function* paginate<T>(
  client: ApiClient,
  path: string,
  query: Query,
  options: PaginateOptions = {},
): AsyncGenerator<T> {
  let remaining = options.limit ?? Infinity;
  let cursor: string | undefined = options.after;
  const pageSize = options.pageSize ?? LIMITS.pageMax;
  while (remaining > 0) {
    const size = Math.min(pageSize, remaining);
    const page: Page<T> = await client.get<Page<T>>(
      path,
      { ...query, 'page[limit]': size, 'page[after]': cursor },
      options.signal,
    );
    for (const item of page.data) {
      yield item;
      if (--remaining <= 0) return;
    }
    options.onCursor?.(page.pagination.next_cursor);
    if (!page.pagination.has_more || !page.pagination.next_cursor) return;
    cursor = page.pagination.next_cursor;
  }
}
