/**
 * Times as a person reads them: in one zone, labelled (product.md §2 "Time").
 * The zone is the operator's local one unless MSGCTL_TIME_ZONE or the
 * profile's `time_zone` names another (an IANA name, or `organization` for the
 * one the service keeps dates in). Tables show recent times relative ("5m
 * ago"), older ones short ("Nov 3 14:05", "2025-11-03") under a header that
 * names the zone; record views show the full time with its zone and, when
 * recent, how long ago. Piped and JSON output never come here: they keep the
 * service's RFC 3339 UTC.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export class TimeView {
  private readonly parts: Intl.DateTimeFormat;
  private readonly abbreviation: Intl.DateTimeFormat;

  /** `zone`: an IANA name, or undefined for this machine's local zone. */
  constructor(
    readonly zone: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    const options: Intl.DateTimeFormatOptions = { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' };
    this.parts = new Intl.DateTimeFormat('en-US', options);
    this.abbreviation = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
  }

  /** The zone's short name at `ms` (EST, GMT+1, UTC): what labels a column or a time. */
  label(ms: number = this.now()): string {
    return this.abbreviation.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
  }

  /** A table cell: "just now", "5m ago", "3h ago" within a day; else "Nov 3 14:05" this year, "2025-11-03" before. */
  cell(iso: string): string {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return iso;
    const relative = this.relative(ms);
    if (relative) return relative;
    const w = this.wall(ms);
    if (w.year === this.wall(this.now()).year) return `${MONTHS[w.month - 1]} ${w.day} ${w.hm}`;
    return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  }

  /** A record view's value: "2026-11-26 14:47 EST (2h ago)". */
  full(iso: string): string {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return iso;
    const w = this.wall(ms);
    const relative = this.relative(ms);
    return `${w.year}-${pad(w.month)}-${pad(w.day)} ${w.hm} ${this.label(ms)}${relative ? ` (${relative})` : ''}`;
  }

  /** A live stream's time, to the second: "14:47:05 EST" today, "2026-11-25 14:47:05 EST" on another day. */
  clock(iso: string): string {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return iso;
    const w = this.wall(ms);
    const today = this.wall(this.now());
    const seconds = pad(new Date(ms).getUTCSeconds()); // every zone in use is offset by whole minutes
    const date = w.year === today.year && w.month === today.month && w.day === today.day ? '' : `${w.year}-${pad(w.month)}-${pad(w.day)} `;
    return `${date}${w.hm}:${seconds} ${this.label(ms)}`;
  }

  /** "5m ago", "in 3h" within a day of now; null further away. */
  private relative(ms: number): string | null {
    const delta = this.now() - ms;
    const size = Math.abs(delta);
    if (size >= DAY) return null;
    if (size < MINUTE) return delta >= 0 ? 'just now' : 'in a moment';
    const amount = size < HOUR ? `${Math.floor(size / MINUTE)}m` : `${Math.floor(size / HOUR)}h`;
    return delta >= 0 ? `${amount} ago` : `in ${amount}`;
  }

  private wall(ms: number): { year: number; month: number; day: number; hm: string } {
    const parts = Object.fromEntries(this.parts.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
    return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hm: `${parts.hour}:${parts.minute}` };
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** True when `zone` is an IANA zone name this Node knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
