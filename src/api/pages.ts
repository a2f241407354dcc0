/**
 * A stream of records that can also be read a page at a time. paginate()
 * returns one; Output.list() takes the page-at-a-time side when it is there,
 * so it formats and writes a whole page with one write (and one backpressure
 * check) instead of one per record. Consumers that want records just iterate.
 */
export const PAGES = Symbol.for('msgctl.pages');

export interface Paged<T> {
  /** The same records, grouped as they arrived. Read either this or the records, not both. */
  [PAGES](): AsyncIterable<T[]>;
}

export function isPaged<T>(value: unknown): value is Paged<T> {
  return typeof value === 'object' && value !== null && typeof (value as Paged<T>)[PAGES] === 'function';
}

/** Records of `pages` one by one, keeping the page-at-a-time side available. */
export function flattenPages<T>(pages: () => AsyncGenerator<T[]>): AsyncGenerator<T> & Paged<T> {
  async function* records(): AsyncGenerator<T> {
    for await (const page of pages()) yield* page;
  }
  return Object.assign(records(), { [PAGES]: pages });
}
