/**
 * A stream of records that can also be read a page at a time. paginate()
 * returns one; Output.list() takes the page-at-a-time side when it is there,
 * so it formats and writes a whole page with one write (and one backpressure
 * check) instead of one per record. Consumers that want records just iterate.
 */
export const PAGES = Symbol.for('msgctl.pages');
export const JSON_LINES = Symbol.for('msgctl.json-lines');
/** After reading: true when the stream stopped at its limit while the service had more records. */
export const MORE = Symbol.for('msgctl.more');

/** Records as JSON Lines, exactly as the service sent them, and how many. */
export interface JsonLinesChunk {
  lines: Buffer;
  count: number;
}

export interface Paged<T> {
  /** The same records, grouped as they arrived. Read one view only: records, pages, or JSON Lines. */
  [PAGES](): AsyncIterable<T[]>;
  /** The same records as JSON Lines chunks, never parsed into objects (when the source can). */
  [JSON_LINES]?: () => AsyncIterable<JsonLinesChunk>;
  [MORE]?: () => boolean;
}

export function isPaged<T>(value: unknown): value is Paged<T> {
  return typeof value === 'object' && value !== null && typeof (value as Paged<T>)[PAGES] === 'function';
}

/** Records of `pages` one by one, keeping the page-at-a-time (and JSON Lines, if given) views available. */
export function flattenPages<T>(
  pages: () => AsyncGenerator<T[]>,
  jsonLines?: () => AsyncGenerator<JsonLinesChunk>,
  more?: () => boolean,
): AsyncGenerator<T> & Paged<T> {
  async function* records(): AsyncGenerator<T> {
    for await (const page of pages()) yield* page;
  }
  return Object.assign(records(), jsonLines ? { [PAGES]: pages, [JSON_LINES]: jsonLines } : { [PAGES]: pages }, more ? { [MORE]: more } : {});
}
