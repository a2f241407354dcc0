/**
 * Orders computed once per traversal. group_by=conversation and
 * GET /patient-conversations rank every conversation as of a snapshot taken on
 * the first page (docs/messages.md); the snapshot is in the cursor, so every
 * later page of that traversal would rank the same set again, and a page would
 * cost as much as the whole list. The ranking is kept here under its list and
 * snapshot: later pages look up their place in it. It holds ids and positions
 * only; what a row shows is read fresh for each page.
 *
 * Bounded (a few traversals at once, oldest dropped first); a dropped or
 * never-seen ranking (e.g. after a restart) is computed again from the
 * snapshot, with the same result.
 */
import type { SandboxContext } from '../context.js';

const TRAVERSALS = 8;

const rankings = new WeakMap<SandboxContext, Map<string, unknown>>();

export function rankingOf<T>(sb: SandboxContext, key: string, compute: () => T): T {
  let cache = rankings.get(sb);
  if (!cache) rankings.set(sb, (cache = new Map()));
  if (cache.has(key)) {
    const value = cache.get(key) as T;
    cache.delete(key);
    cache.set(key, value);
    return value;
  }
  const value = compute();
  if (cache.size >= TRAVERSALS) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/** First index in `sorted` whose element `isAfter` says comes after the cursor (binary search). */
export function firstAfter<T>(sorted: readonly T[], isAfter: (item: T) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAfter(sorted[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
