/**
 * Instants as the API writes them (RFC 3339) and calendar dates that stand
 * for midnight in some time zone. Shared by the sandbox (`after`/`before` of
 * GET /patient-messages, api-spec §4.4) and the CLI's --after/--before, so
 * both accept exactly the same strings.
 */

/** `2026-11-01T09:30:00Z`, `2026-11-01t09:30:00.123+01:00`, `2026-11-01 09:30:00-05:00` (RFC 3339 §5.6 allows a space). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function checkDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12) return `month ${month} does not exist`;
  if (day < 1 || day > daysInMonth(year, month)) return `${year}-${pad(month)} has no day ${day}`;
  return null;
}

/** Epoch milliseconds of an RFC 3339 timestamp, checking every field (Date.parse would roll 02-30 into March). */
export function parseRfc3339(text: string): Parsed<number> {
  const m = RFC3339.exec(text);
  if (!m) return { ok: false, reason: 'not an RFC 3339 timestamp (e.g. 2026-11-01T09:30:00Z)' };
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const bad = checkDate(year, month, day);
  if (bad) return { ok: false, reason: bad };
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: 'time of day out of range' };
  const zone = m[8]!;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return { ok: false, reason: 'UTC offset out of range' };
    offsetMinutes = sign * (oh * 60 + om);
  }
  // Sub-millisecond digits are dropped: the service keeps millisecond precision.
  const millis = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  return { ok: true, value: wall - offsetMinutes * 60_000 };
}

export function parseCalendarDate(text: string): Parsed<CalendarDate> {
  const m = CALENDAR_DATE.exec(text);
  if (!m) return { ok: false, reason: 'not a YYYY-MM-DD date' };
  const [year, month, day] = m.slice(1, 4).map(Number) as [number, number, number];
  const bad = checkDate(year, month, day);
  return bad ? { ok: false, reason: bad } : { ok: true, value: { year, month, day } };
}

export function formatCalendarDate(d: CalendarDate): string {
  return `${String(d.year).padStart(4, '0')}-${pad(d.month)}-${pad(d.day)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    wallClockFormats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock reading in `timeZone` at `ms`, expressed as if it were UTC (so differences are offsets). */
function wallClockAsUtc(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of wallClockFormat(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** UTC offset of `timeZone` at instant `ms`, in milliseconds (east positive). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const whole = ms - (ms % 1000);
  return wallClockAsUtc(whole, timeZone) - whole;
}

/**
 * The first instant of a calendar day in a time zone: usually local midnight.
 * Where a DST change skips midnight (clocks jump 00:00 → 01:00, as in
 * America/Santiago or America/Havana) the day starts at the jump; where
 * midnight happens twice, the first one counts.
 */
export function startOfDayMs(date: CalendarDate, timeZone: string): number {
  // Every page of a list re-reads its `after`; Intl formatting is slow enough to matter there.
  const key = `${timeZone} ${formatCalendarDate(date)}`;
  let ms = dayStarts.get(key);
  if (ms === undefined) {
    if (dayStarts.size > 10_000) dayStarts.clear();
    dayStarts.set(key, (ms = computeStartOfDay(date, timeZone)));
  }
  return ms;
}

const dayStarts = new Map<string, number>();

function computeStartOfDay(date: CalendarDate, timeZone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day);
  // The offset may differ either side of a transition near midnight: try both.
  const first = wall - zoneOffsetMs(wall, timeZone);
  const second = wall - zoneOffsetMs(first, timeZone);
  const candidates = [first, second].sort((a, b) => a - b);
  const day = formatCalendarDate(date);
  const onTheDay = candidates.filter((ms) => localDate(ms, timeZone) === day);
  // Neither candidate falls on the day only if the zone data is exotic; the UTC guess is then as good as any.
  return onTheDay[0] ?? first;
}

/** The calendar date (YYYY-MM-DD) in `timeZone` at instant `ms`. */
export function localDate(ms: number, timeZone: string): string {
  const wall = new Date(wallClockAsUtc(ms, timeZone));
  return formatCalendarDate({ year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() });
}

/** Throws RangeError for a name Intl does not know. */
export function checkTimeZone(timeZone: string): void {
  wallClockFormat(timeZone);
}
