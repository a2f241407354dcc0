/**
 * The types of the output layer, apart from output.ts so its helpers
 * (table-render, pager, time-zone…) and the Context can name them without an
 * import loop.
 */

export type ColorMode = 'auto' | 'always' | 'never';

export type OutputMode = 'json' | 'table' | 'plain';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Label in a record view (`messages get`), when it reads better than the header. */
  label?: string;
  /** This column takes what width the terminal has left (e.g. a message body). */
  flex?: boolean;
  /** Preferred table width (content only); it may still shrink to fit the terminal. */
  width?: number;
  /** Left out of a table that does not fit the terminal (unless --wide): the highest rank goes first. */
  drop?: number;
  /** Never shrunk to fit (a cut one is useless to copy). */
  fixed?: boolean;
  /**
   * The id follow-up commands take: shown whole, never shrunk, and the last
   * column dropped when the table must shrink (product.md §2).
   */
  id?: boolean;
  /** An RFC 3339 time: a person reads it in one labelled zone (time-view.ts), piped output as given. */
  time?: boolean;
  /** Left out of a record view unless --wide (low-value detail). */
  detail?: boolean;
}

export interface OutStream {
  write(chunk: string | Uint8Array, callback?: (err?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
  /** Set by a pager that has exited (output/pager.ts): nothing more can be shown. */
  readerGone?: boolean;
}

/** What the terminal settings depend on beyond the streams: the profile's, loaded only when needed. */
export interface ScreenSettings {
  env: Record<string, string | undefined>;
  /** --color / --no-color. */
  colorFlag?: ColorMode;
  /** --no-pager. */
  pager: boolean;
  /** --plain or MSGCTL_PLAIN. */
  plain: boolean;
  /** The profile's color, pager and time_zone, and a way to ask the service for its zone. */
  profile: () => Promise<{ color?: ColorMode; pager?: string; time_zone?: string } | undefined>;
  organizationTimeZone?: () => Promise<string | undefined>;
  now?: () => number;
}

export interface Style {
  bold: (s: string) => string;
  dim: (s: string) => string;
  red: (s: string) => string;
  green: (s: string) => string;
  yellow: (s: string) => string;
}

const identity = (s: string) => s;
export const plainStyle: Style = { bold: identity, dim: identity, red: identity, green: identity, yellow: identity };
