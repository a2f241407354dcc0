/**
 * Calendar dates as they appear in EHR exports and spreadsheets, turned into
 * the `YYYY-MM-DD` the service expects (api-spec §2.3 `date_of_birth`).
 *
 * Numeric dates with separators (`03/07/2024`, `3-7-24`, `03.07.2024`) are
 * never guessed (product.md §2): with a stated order (`order: 'day-first'` or
 * `'month-first'`, from --day-first/--month-first or the profile's date_order)
 * they are read that way, and a date that order cannot read (`13/03/2024`
 * month-first) is refused. Without one, a date only one order can read
 * (`13/03/2024`, `03/13/2024`) is read that way, one whose day and month are
 * the same either way round (`03/03/2024`) is read, and one both orders could
 * read differently (`03/02/1969`: 3 February or 2 March) is refused as
 * ambiguous, so the caller can say how to choose. ISO dates always work.
 *
 * A time of day after the date (`1980-03-07T00:00:00Z`, `3/7/1980 12:00 AM`,
 * as spreadsheets add) is ignored: the date is taken as written, never shifted
 * through a time zone, since a birth date has none.
 */

export type DateResult = { ok: true; date: string } | { ok: false; reason: string; ambiguous?: true };

/** How numeric dates are written: `dd/mm/yyyy` or `mm/dd/yyyy`. */
export type DateOrder = 'day-first' | 'month-first';
export const DATE_ORDERS: readonly DateOrder[] = ['day-first', 'month-first'];

/**
 * The reason given for a date both orders could read (row reports add no value, see
 * csv/patient-rows.ts). Every error that shows it also gives DATE_ORDER_HINTS (date-order.ts):
 * the ways out are said once, there.
 */
export const AMBIGUOUS_DATE = 'ambiguous date: day and month could be either way round';

export interface DateOptions {
  /** Reject dates after today (birth dates). Also makes two-digit years resolve into the past. */
  notInFuture?: boolean;
  /** How numeric dates are written; without it, only dates that one order alone can read are accepted. */
  order?: DateOrder;
  /** Where `order` came from when not from a flag (date-order.ts resolveDateOrder), named in errors. */
  orderFrom?: string;
  /** "Today", for tests; defaults to the current local date. */
  today?: Date;
}

/** Earlier years are almost always typos (`0198`), not patients. */
const MIN_YEAR = 1800;

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  january: 1, february: 2, march: 3, april: 4, june: 6, july: 7, august: 8, september: 9, october: 10,
  november: 11, december: 12,
};

const TIME_SUFFIX = /(?:[T\s]+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:[AP]\.?M\.?)?\s*(?:Z|[+-]\d{2}:?\d{2})?)$/i;
const YEAR_FIRST = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
const NUMERIC = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{2}|\d{4})$/;
const DAY_MONTH_NAME = /^(\d{1,2})[\s-]+([a-z]+)\.?[\s-]+(\d{2}|\d{4})$/i;
const MONTH_NAME_DAY = /^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{2}|\d{4})$/i;

interface Parts {
  year: number;
  /** True when the year was written with two digits and needs a century. */
  shortYear: boolean;
  month: number | undefined;
  day: number;
  /** Numeric day and month, read in the stated order. */
  ordered: boolean;
  /** Numeric day and month with no stated order that both orders read, differently. */
  ambiguous?: boolean;
}

function splitDate(text: string, order: DateOrder | undefined): Parts | undefined {
  let m = YEAR_FIRST.exec(text) ?? COMPACT.exec(text);
  if (m) return { year: Number(m[1]), shortYear: false, month: Number(m[2]), day: Number(m[3]), ordered: false };
  m = NUMERIC.exec(text);
  if (m) {
    const [first, second] = [Number(m[1]), Number(m[3])];
    const year = m[4] ?? '';
    const shortYear = year.length === 2;
    if (order !== undefined) {
      const [month, day] = order === 'day-first' ? [second, first] : [first, second];
      return { year: Number(year), shortYear, month, day, ordered: true };
    }
    // No stated order: a part above 12 can only be the day; two parts of 12 or less that differ could be either.
    if (first > 12 && second <= 12) return { year: Number(year), shortYear, month: second, day: first, ordered: false };
    const ambiguous = first >= 1 && first <= 12 && second >= 1 && second <= 12 && first !== second;
    return { year: Number(year), shortYear, month: first, day: second, ordered: false, ambiguous };
  }
  m = DAY_MONTH_NAME.exec(text);
  if (m) {
    const year = m[3] ?? '';
    return { year: Number(year), shortYear: year.length === 2, month: MONTHS[(m[2] ?? '').toLowerCase()], day: Number(m[1]), ordered: false };
  }
  m = MONTH_NAME_DAY.exec(text);
  if (m) {
    const year = m[3] ?? '';
    return { year: Number(year), shortYear: year.length === 2, month: MONTHS[(m[1] ?? '').toLowerCase()], day: Number(m[2]), ordered: false };
  }
  return undefined;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function iso(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function localToday(today: Date): string {
  return iso(today.getFullYear(), today.getMonth() + 1, today.getDate());
}

/**
 * Two-digit years: for birth dates (`notInFuture`) the latest century that
 * keeps the date on or before today (`3/7/24` is 2024 until it would be
 * future, then 1924); otherwise the century nearest today.
 */
function resolveCentury(parts: Parts & { month: number }, todayIso: string, notInFuture: boolean): number {
  const todayYear = Number(todayIso.slice(0, 4));
  const century = Math.floor(todayYear / 100) * 100;
  if (notInFuture) {
    const candidate = century + parts.year;
    return iso(candidate, parts.month, parts.day) <= todayIso ? candidate : candidate - 100;
  }
  const candidates = [century - 100, century, century + 100].map((c) => c + parts.year);
  return candidates.reduce((best, y) => (Math.abs(y - todayYear) < Math.abs(best - todayYear) ? y : best));
}

/**
 * Longer than any date this reads, time and zone included ("September 30th, 2024 12:34:56.123456 PM
 * +05:30" is 46): refused before any pattern runs. TIME_SUFFIX, unanchored at its start, is
 * quadratic in a run of spaces (a 200,000-character CSV cell took 30 s per row).
 */
const MAX_DATE_LENGTH = 64;

export function normalizeDate(input: string, options: DateOptions = {}): DateResult {
  const trimmed = input.trim();
  if (trimmed.length > MAX_DATE_LENGTH) return { ok: false, reason: `too long to be a date (${trimmed.length.toLocaleString('en-US')} characters; use YYYY-MM-DD)` };
  const text = trimmed.replace(TIME_SUFFIX, '').trim();
  if (text === '') return { ok: false, reason: 'empty' };
  const parts = splitDate(text, options.order);
  if (!parts) return { ok: false, reason: `unrecognised date format (use YYYY-MM-DD)` };
  const { month, day } = parts;
  if (month === undefined) return { ok: false, reason: 'unknown month name' };
  if (parts.ambiguous) return { ok: false, reason: AMBIGUOUS_DATE, ambiguous: true };
  if (month < 1 || month > 12) {
    const from = options.orderFrom ? `, as ${options.orderFrom} says` : '';
    const hint = parts.ordered ? ` (numeric dates are read ${options.order === 'day-first' ? 'day first: DD/MM/YYYY' : 'month first: MM/DD/YYYY'}${from})` : '';
    return { ok: false, reason: `month ${month} does not exist${hint}` };
  }
  const todayIso = localToday(options.today ?? new Date());
  const year = parts.shortYear ? resolveCentury({ ...parts, month }, todayIso, options.notInFuture ?? false) : parts.year;
  if (year < MIN_YEAR) return { ok: false, reason: `year before ${MIN_YEAR}` };
  if (day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, reason: 'not a real calendar date' };
  }
  const date = iso(year, month, day);
  if (options.notInFuture && date > todayIso) return { ok: false, reason: 'in the future' };
  return { ok: true, date };
}

/** True for a numeric date that both orders read, differently (`03/02/1969`), whatever follows it. */
export function isAmbiguousDate(input: string): boolean {
  const result = normalizeDate(input);
  return !result.ok && result.ambiguous === true;
}
