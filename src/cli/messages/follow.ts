/**
 * `messages list --follow`: the requested list first (oldest first unless --order says
 * otherwise: initialPages), then every message created after the command started, oldest
 * first, each printed once, until Ctrl-C (exit 0: stopping is how a follow ends).
 *
 * How "once" holds without remembering every id: a high-water mark, the
 * newest created_at seen, plus the ids seen at exactly that time. Each poll
 * asks for after=<mark> (inclusive) in ascending order, skips those ids, and
 * moves the mark with every record printed. A poll that fails part-way, or a
 * service that goes away for a while, is simply asked again from the mark:
 * nothing in between is missed, nothing printed twice. Transient failures
 * (connection, 429, 5xx, after the client's own retries) back off up to 30 s;
 * anything else ends the command as usual.
 */
import type { Context } from '../context.js';
import type { ApiClient, Query } from '../api/client.js';
import type { Column } from '../output/output.js';
import type { Message } from '../../contract/api.js';
import { ApiError, NetworkError } from '../api/errors.js';
import { flattenPages, PAGES } from '../api/pages.js';
import { MESSAGE } from '../api/shapes.js';
import { cell } from '../output/terminal-text.js';

export interface FollowOptions {
  limit?: number;
  intervalMs: number;
}

const MAX_BACKOFF_MS = 30_000;

/** Newest created_at printed (or existing at start) and the ids at exactly that time. */
export class HighWaterMark {
  private ms = -Infinity;
  private iso: string | null = null;
  private readonly idsAtMark = new Set<string>();

  /** Records `m` as seen; false if it already was. An older message leaves the mark where it is. */
  take(m: Pick<Message, 'id' | 'created_at'>): boolean {
    if (this.idsAtMark.has(m.id)) return false;
    const ms = Date.parse(m.created_at);
    if (ms > this.ms) {
      this.ms = ms;
      this.iso = m.created_at;
      this.idsAtMark.clear();
    }
    if (ms === this.ms) this.idsAtMark.add(m.id);
    return true;
  }

  /** The `after` to poll from, or null before anything was seen. */
  get after(): string | null {
    return this.iso;
  }
}

export function isTransient(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  return err instanceof ApiError && (err.status === 429 || err.status >= 500);
}

export async function followMessages(
  ctx: Context,
  client: ApiClient,
  query: Query,
  columns: Column<Message>[],
  options: FollowOptions,
): Promise<number> {
  const mark = new HighWaterMark();
  try {
    // What exists now is not new. Several, in case more than one share the newest millisecond.
    const probe: Message[] = [];
    for await (const m of client.paginate('/patient-messages', { ...query, order: 'desc' }, { limit: 20, signal: ctx.signal, shape: MESSAGE })) probe.push(m);
    const newest = probe[0];
    for (const m of probe) if (newest && m.created_at === newest.created_at) mark.take(m);

    // One stream, so a terminal table has one header and its columns line up from the list into the follow.
    await ctx.out.list(
      flattenPages(async function* () {
        for await (const page of initialPages(ctx, client, query, options.limit)) {
          // Messages that arrived since the probe are printed here: move the mark past them so the polls skip them.
          for (const m of page) mark.take(m);
          yield page;
        }
        yield* newMessages(ctx, client, query, mark, options);
      }),
      columns,
      { pager: false },
    );
    return 0;
  } catch (err) {
    if (ctx.signal.aborted) return 0;
    throw err;
  }
}

/**
 * The list before the follow part. Without --order it reads as `tail -f` does, oldest at the top
 * and new messages arriving below: the newest `limit` in range, asked for newest first (as without
 * --follow) and printed oldest first (at most `limit` kept to turn round), or with --all the whole
 * range oldest first. Newest first on top of new ones appended below read out of order. An --order
 * given is kept as given.
 */
async function* initialPages(ctx: Context, client: ApiClient, query: Query, limit: number | undefined): AsyncGenerator<Message[]> {
  if (query.order !== undefined || limit === undefined) {
    yield* client.paginate('/patient-messages', { ...query, order: query.order ?? 'asc' }, { limit, signal: ctx.signal, shape: MESSAGE })[PAGES]();
    return;
  }
  const newest: Message[] = [];
  for await (const m of client.paginate('/patient-messages', { ...query, order: 'desc' }, { limit, signal: ctx.signal, shape: MESSAGE })) newest.push(m);
  if (newest.length) yield newest.reverse();
}

async function* newMessages(ctx: Context, client: ApiClient, query: Query, mark: HighWaterMark, options: FollowOptions): AsyncGenerator<Message[]> {
  let failures = 0;
  for (;;) {
    await ctx.services.clock.sleep(failures ? backoffMs(failures, options.intervalMs) : options.intervalMs, ctx.signal);
    const poll: Query = { ...query, after: mark.after ?? query.after, order: 'asc' };
    try {
      for await (const page of client.paginate('/patient-messages', poll, { signal: ctx.signal, shape: MESSAGE })[PAGES]()) {
        const fresh = page.filter((m) => mark.take(m));
        if (fresh.length) yield fresh;
      }
      if (failures) ctx.out.info('Connection restored; following again.');
      failures = 0;
    } catch (err) {
      if (ctx.signal.aborted || !isTransient(err)) throw err;
      failures++;
      ctx.out.warn(`could not poll for new messages (${cell((err as Error).message)}); retrying in ${Math.round(backoffMs(failures, options.intervalMs) / 1000)}s`);
    }
  }
}

function backoffMs(failures: number, intervalMs: number): number {
  return Math.min(MAX_BACKOFF_MS, Math.max(1000, intervalMs) * 2 ** (failures - 1));
}
