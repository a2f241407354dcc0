import { describe, expect, it } from 'vitest';
import { localDate, parseCalendarDate, parseRfc3339, startOfDayMs } from '../../src/contract/timestamps.js';
import { parseTimeFlag } from '../../src/cli/messages/time-flags.js';
import { UsageError } from '../../src/cli/errors.js';

const day = (s: string) => {
  const d = parseCalendarDate(s);
  if (!d.ok) throw new Error(d.reason);
  return d.value;
};
const iso = (ms: number) => new Date(ms).toISOString();

describe('parseRfc3339', () => {
  it.each([
    ['2026-11-01T09:30:00Z', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01t09:30:00z', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01 09:30:00+01:00', '2026-11-01T08:30:00.000Z'],
    ['2026-11-01T09:30:00.123456-05:30', '2026-11-01T15:00:00.123Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59.000Z'],
  ])('%s', (text, expected) => {
    const r = parseRfc3339(text);
    expect(r.ok && iso(r.value)).toBe(expected);
  });

  it.each(['2026-11-01', '2026-11-01T09:30Z', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-01T24:00:00Z', '2026-11-01T09:30:00+24:00', 'yesterday', ' 2026-11-01T09:30:00Z'])(
    'refuses %s',
    (text) => expect(parseRfc3339(text).ok).toBe(false),
  );
});

describe('startOfDayMs', () => {
  it('is local midnight on either side of a DST change', () => {
    expect(iso(startOfDayMs(day('2026-03-07'), 'America/New_York'))).toBe('2026-03-07T05:00:00.000Z');
    expect(iso(startOfDayMs(day('2026-03-08'), 'America/New_York'))).toBe('2026-03-08T05:00:00.000Z'); // clocks jump at 02:00 that day
    expect(iso(startOfDayMs(day('2026-03-09'), 'America/New_York'))).toBe('2026-03-09T04:00:00.000Z');
    expect(iso(startOfDayMs(day('2026-11-01'), 'America/New_York'))).toBe('2026-11-01T04:00:00.000Z');
    expect(iso(startOfDayMs(day('2026-11-02'), 'America/New_York'))).toBe('2026-11-02T05:00:00.000Z');
  });

  it('handles zones with odd offsets and UTC', () => {
    expect(iso(startOfDayMs(day('2026-06-15'), 'Asia/Kolkata'))).toBe('2026-06-14T18:30:00.000Z');
    expect(iso(startOfDayMs(day('2026-06-15'), 'Asia/Kathmandu'))).toBe('2026-06-14T18:15:00.000Z');
    expect(iso(startOfDayMs(day('2026-06-15'), 'UTC'))).toBe('2026-06-15T00:00:00.000Z');
  });

  it('where DST skips midnight, the day starts when the clocks jump', () => {
    // America/Santiago: 2024-09-08 00:00 -04 became 01:00 -03.
    const start = startOfDayMs(day('2024-09-08'), 'America/Santiago');
    expect(iso(start)).toBe('2024-09-08T04:00:00.000Z');
    expect(localDate(start, 'America/Santiago')).toBe('2024-09-08');
    expect(localDate(start - 1, 'America/Santiago')).toBe('2024-09-07');
  });

  it('where midnight happens twice, takes the first', () => {
    // America/Santiago: 2024-04-07 00:00 -03 fell back to 2024-04-06 23:00 -04.
    const start = startOfDayMs(day('2024-04-07'), 'America/Santiago');
    expect(localDate(start, 'America/Santiago')).toBe('2024-04-07');
    expect(localDate(start - 1, 'America/Santiago')).toBe('2024-04-06');
  });
});

describe('parseTimeFlag', () => {
  const now = new Date(2026, 10, 22, 9, 30); // local time

  it('passes the service\'s own forms through', () => {
    expect(parseTimeFlag('--after', '2026-11-01', now)).toBe('2026-11-01');
    expect(parseTimeFlag('--after', '2026-11-01T09:30:00-05:00', now)).toBe('2026-11-01T09:30:00-05:00');
  });

  it('turns friendly forms into dates or instants', () => {
    expect(parseTimeFlag('--after', 'today', now)).toBe('2026-11-22');
    expect(parseTimeFlag('--after', 'Yesterday', now)).toBe('2026-11-21');
    expect(parseTimeFlag('--after', 'now', now)).toBe(now.toISOString());
    expect(parseTimeFlag('--after', '24h', now)).toBe(new Date(now.getTime() - 86_400_000).toISOString());
    expect(parseTimeFlag('--after', '7d', now)).toBe(new Date(now.getTime() - 7 * 86_400_000).toISOString());
    expect(parseTimeFlag('--after', '30m', now)).toBe(new Date(now.getTime() - 1_800_000).toISOString());
    expect(parseTimeFlag('--after', '2w ago', now)).toBe(new Date(now.getTime() - 14 * 86_400_000).toISOString());
    expect(parseTimeFlag('--after', '3 days', now)).toBe(new Date(now.getTime() - 3 * 86_400_000).toISOString());
  });

  it('names the flag when it refuses', () => {
    expect(() => parseTimeFlag('--before', 'soon', now)).toThrow(UsageError);
    expect(() => parseTimeFlag('--before', 'soon', now)).toThrow(/--before "soon" is not a time/);
    expect(() => parseTimeFlag('--after', '2026-02-29', now)).toThrow(/2026-02 has no day 29/);
    expect(() => parseTimeFlag('--after', '7y', now)).toThrow(/--after/);
  });
});
