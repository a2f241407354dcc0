/**
 * Raised for any `q` that cannot be parsed. The sandbox route turns it into a
 * 400 `invalid_query` problem whose detail is `message`, so the message must
 * make sense on its own and always names the offending position.
 */
export class QueryParseError extends Error {
  /** 0-based offset into the query, in UTF-16 code units (JavaScript string indices). */
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.name = 'QueryParseError';
    this.position = position;
  }
}
