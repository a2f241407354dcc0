/**
 * Which order a command reads numeric dates in (`03/02/1969`): --day-first or
 * --month-first, else the profile's `date_order`, else the settled order of
 * the region (--region, else the profile's `region`), else none, and then a
 * date both orders could read differently is refused (util/dates.ts;
 * `msgctl help dates`). msgctl's default region for phone numbers (US) is
 * not a statement about dates, so it sets no order.
 */
import { UsageError } from '../errors.js';
import type { DateOrder } from './dates.js';

export interface DateOrderFlags {
  dayFirst?: boolean;
  monthFirst?: boolean;
}

/**
 * Regions whose numeric dates are month first (the US and the territories and
 * freely associated states that follow it). Regions where day first is not the
 * settled way (Canada writes both; year-first countries) have no default.
 */
const MONTH_FIRST_REGIONS = new Set(['US', 'AS', 'GU', 'MP', 'PR', 'UM', 'VI', 'FM', 'MH', 'PW', 'PH', 'BZ']);
const NO_SETTLED_ORDER = new Set(['CA', 'CN', 'JP', 'KR', 'KP', 'TW', 'HU', 'MN', 'LT', 'IR', 'SE', 'ZA']);

/** The order a region writes numeric dates in, when it has one settled order. */
export function dateOrderOfRegion(region: string | undefined): DateOrder | undefined {
  if (!region) return undefined;
  const code = region.toUpperCase();
  if (MONTH_FIRST_REGIONS.has(code)) return 'month-first';
  if (NO_SETTLED_ORDER.has(code) || !/^[A-Z]{2}$/.test(code)) return undefined;
  return 'day-first';
}

/**
 * The order, and where it came from when no flag on this command line set it (`from`, for an
 * error about a date read that way: `profile "sandbox"'s date_order`, `region GB`): a setting
 * made long ago, or a region, is easy to forget when a date is refused.
 */
export function resolveDateOrder(
  flags: DateOrderFlags & { region?: string },
  profile: { date_order?: DateOrder; region?: string } | undefined,
  profileName: string,
): { order?: DateOrder; from?: string } {
  if (flags.dayFirst && flags.monthFirst) throw new UsageError('--day-first and --month-first contradict each other: give one.');
  if (flags.dayFirst) return { order: 'day-first' };
  if (flags.monthFirst) return { order: 'month-first' };
  if (profile?.date_order) return { order: profile.date_order, from: `profile "${profileName}"'s date_order` };
  const region = flags.region ?? profile?.region;
  const order = dateOrderOfRegion(region);
  if (order === undefined) return {};
  return { order, from: flags.region === undefined ? `profile "${profileName}"'s region ${region!.toUpperCase()}` : `region ${region!.toUpperCase()}` };
}

/** The ways out of an ambiguous date, for errors. */
export const DATE_ORDER_HINTS: readonly string[] = [
  'Say how the dates are written: --day-first (03/02/1969 is 3 February) or --month-first (2 March),',
  'or once for the profile: `msgctl config set date_order day-first` (or month-first). YYYY-MM-DD always works.',
];
