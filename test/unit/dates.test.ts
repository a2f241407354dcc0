import { describe, expect, it } from 'vitest';
import { AMBIGUOUS_DATE, isAmbiguousDate, normalizeDate } from '../../src/cli/util/dates.js';

const today = new Date(2025, 5, 15); // 15 June 2025, local time

describe('normalizeDate', () => {
  it.each([
    ['2024-03-07', '2024-03-07'],
    ['2024-3-7', '2024-03-07'],
    ['03/13/2024', '2024-03-13'],
    ['13/03/2024', '2024-03-13'],
    ['3/3/2024', '2024-03-03'],
    ['3-13-2024', '2024-03-13'],
    ['2024/03/07', '2024-03-07'],
    ['07-Mar-2024', '2024-03-07'],
    ['7 Mar 2024', '2024-03-07'],
    ['07 march 2024', '2024-03-07'],
    ['Mar 7, 2024', '2024-03-07'],
    ['Mar. 7, 2024', '2024-03-07'],
    ['March 7 2024', '2024-03-07'],
    ['Sept 7th, 2024', '2024-09-07'],
    ['20240307', '2024-03-07'],
    [' 2024-03-07 ', '2024-03-07'],
    ['2024-03-07T00:00:00Z', '2024-03-07'],
    ['2024-03-07T23:30:00-05:00', '2024-03-07'],
    ['3/17/2024 12:00:00 AM', '2024-03-17'],
    ['1980-02-29', '1980-02-29'],
  ])('reads %j as %s', (input, expected) => {
    expect(normalizeDate(input, { today })).toEqual({ ok: true, date: expected });
  });

  it('never guesses the order of an ambiguous numeric date: it needs a stated order', () => {
    for (const text of ['07/03/2024', '3/2/1969', '12.09.1986', '1-2-69']) {
      const result = normalizeDate(text, { today });
      expect(result).toEqual({ ok: false, reason: AMBIGUOUS_DATE, ambiguous: true });
      expect(isAmbiguousDate(text)).toBe(true);
    }
    expect(normalizeDate('07/03/2024', { today, order: 'month-first' })).toEqual({ ok: true, date: '2024-07-03' });
    expect(normalizeDate('07/03/2024', { today, order: 'day-first' })).toEqual({ ok: true, date: '2024-03-07' });
    expect(isAmbiguousDate('2024-03-07')).toBe(false);
    expect(isAmbiguousDate('13/03/2024')).toBe(false);
    expect(isAmbiguousDate('00/10/1990')).toBe(false);
  });

  it('refuses a date the stated order cannot read, and says which order it used', () => {
    expect(normalizeDate('13/03/2024', { today, order: 'month-first' })).toEqual({
      ok: false,
      reason: 'month 13 does not exist (numeric dates are read month first: MM/DD/YYYY)',
    });
    expect(normalizeDate('03/13/2024', { today, order: 'day-first' })).toEqual({
      ok: false,
      reason: 'month 13 does not exist (numeric dates are read day first: DD/MM/YYYY)',
    });
    expect(normalizeDate('2024-13-03', { today })).toEqual({ ok: false, reason: 'month 13 does not exist' });
  });

  it.each([
    ['02/30/1980', 'not a real calendar date'],
    ['1981-02-29', 'not a real calendar date'],
    ['04/31/1990', 'not a real calendar date'],
    ['00/10/1990', 'month 0'],
    ['1990-01-00', 'not a real calendar date'],
    ['Foo 7, 2024', 'unknown month'],
    ['yesterday', 'unrecognised'],
    ['2024-03', 'unrecognised'],
    ['240307', 'unrecognised'],
    ['0198-03-07', 'year before 1800'],
    ['', 'empty'],
  ])('rejects %j (%s)', (input, reason) => {
    const result = normalizeDate(input, { today });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('rejects future dates only when asked', () => {
    expect(normalizeDate('2025-06-16', { today, notInFuture: true })).toEqual({
      ok: false,
      reason: 'in the future',
    });
    expect(normalizeDate('2025-06-15', { today, notInFuture: true })).toEqual({ ok: true, date: '2025-06-15' });
    expect(normalizeDate('2025-06-16', { today })).toEqual({ ok: true, date: '2025-06-16' });
  });

  describe('two-digit years', () => {
    it('put birth dates in the latest century that is not in the future', () => {
      expect(normalizeDate('3/7/24', { order: 'month-first', today, notInFuture: true })).toEqual({ ok: true, date: '2024-03-07' });
      expect(normalizeDate('6/15/25', { today, notInFuture: true })).toEqual({ ok: true, date: '2025-06-15' });
      expect(normalizeDate('6/16/25', { today, notInFuture: true })).toEqual({ ok: true, date: '1925-06-16' });
      expect(normalizeDate('3/7/48', { order: 'month-first', today, notInFuture: true })).toEqual({ ok: true, date: '1948-03-07' });
      expect(normalizeDate('07-Mar-99', { today, notInFuture: true })).toEqual({ ok: true, date: '1999-03-07' });
    });

    it('otherwise take the century nearest today', () => {
      expect(normalizeDate('3/7/30', { order: 'month-first', today })).toEqual({ ok: true, date: '2030-03-07' });
      expect(normalizeDate('3/7/80', { order: 'month-first', today })).toEqual({ ok: true, date: '1980-03-07' });
    });

    it('validate leap days against the resolved century', () => {
      expect(normalizeDate('2/29/00', { today, notInFuture: true })).toEqual({ ok: true, date: '2000-02-29' });
      expect(normalizeDate('2/29/01', { today, notInFuture: true }).ok).toBe(false);
    });
  });

  it('refuses text longer than any date before reading it (a cell of spaces cost 30 s a row)', () => {
    const longest = 'September 30th, 2024 12:34:56.123456 PM +05:30';
    expect(normalizeDate(longest, { today })).toEqual({ ok: true, date: '2024-09-30' });
    expect(normalizeDate(`1${' '.repeat(200_000)}x`, { today })).toEqual({ ok: false, reason: 'too long to be a date (200,002 characters; use YYYY-MM-DD)' });
    expect(normalizeDate(`2024-09-30${' '.repeat(60)}12:00`, { today }).ok).toBe(false);
    // Spaces around a date are not its length.
    expect(normalizeDate(`${' '.repeat(100)}2024-09-30${' '.repeat(100)}`, { today })).toEqual({ ok: true, date: '2024-09-30' });
  });

  it('uses the real current date by default', () => {
    const nextYear = new Date().getFullYear() + 1;
    expect(normalizeDate(`${nextYear}-01-01`, { notInFuture: true }).ok).toBe(false);
  });
});
