/**
 * api-spec §4.12: lists in creation order are "oldest first, with ID as
 * tiebreaker". Records made in the same millisecond (concurrent requests,
 * a batch) must not come back in insertion order, which differs from id order.
 */

/** Sorts in place by (created_at, id); ISO timestamps of one format compare as strings. */
export function oldestFirst<T extends { created_at: string; id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => compare(a.created_at, b.created_at) || compare(a.id, b.id));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
