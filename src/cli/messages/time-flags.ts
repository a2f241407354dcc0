/**
 * --after/--before values, checked before any request (exit 2 naming the
 * flag otherwise). What the service takes passes through unchanged:
 *
 *   2026-11-01T09:30:00Z, 2026-11-01T09:30:00-05:00   RFC 3339 instants
 *   2026-11-01                                        midnight in the organization's time zone (the service decides)
 *   today, yesterday                                  this machine's local date, sent as YYYY-MM-DD
 *   now                                               this instant
 *   30m, 24h, 7d, 2w  (also "7d ago")                 that long before now, sent as an instant
 */
import { UsageError } from '../errors.js';
import { formatCalendarDate, parseCalendarDate, parseRfc3339 } from '../../contract/timestamps.js';

const AGE = /^(\d+)\s*(m|min|mins|minutes?|h|hours?|d|days?|w|weeks?)(\s+ago)?$/i;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** The query value for a time flag, or a UsageError that names the flag and says what is accepted. */
export function parseTimeFlag(flag: string, raw: string, now: Date = new Date()): string {
  const text = raw.trim();
  const lower = text.toLowerCase();
  if (lower === 'now') return now.toISOString();
  if (lower === 'today' || lower === 'yesterday') {
    const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (lower === 'yesterday' ? 1 : 0));
    return formatCalendarDate({ year: day.getFullYear(), month: day.getMonth() + 1, day: day.getDate() });
  }
  const age = AGE.exec(text);
  if (age) {
    const unit = age[2]!.toLowerCase()[0]!;
    return new Date(now.getTime() - Number(age[1]) * UNIT_MS[unit]!).toISOString();
  }
  const date = parseCalendarDate(text);
  if (date.ok) return text;
  if (parseRfc3339(text).ok) return text;
  const reason = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `: ${date.reason}` : '';
  throw new UsageError(`${flag} "${raw}" is not a time${reason}.`, [
    `Use an RFC 3339 time (2026-11-01T09:30:00Z), a date (2026-11-01), today, yesterday, or an age (30m, 24h, 7d, 2w).`,
  ]);
}
