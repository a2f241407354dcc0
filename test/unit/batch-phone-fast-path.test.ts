/**
 * normalizePhone answers plain North American numbers without libphonenumber
 * (it was most of a batch row's CPU). This holds the shortcut to exactly what
 * libphonenumber says for the same text and region.
 */
import { describe, expect, it } from 'vitest';
import { parsePhoneNumberWithError, type CountryCode } from 'libphonenumber-js';
import { normalizePhone } from '../../src/cli/util/phone.js';

/** What the full path gives for a number it accepts. */
function viaLibphonenumber(text: string, region: CountryCode): string {
  const parsed = parsePhoneNumberWithError(text, region);
  expect(parsed.isPossible()).toBe(true);
  return parsed.number;
}

function* samples(): Generator<string> {
  let seed = 7;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const formats = [
    (a: string, b: string, c: string) => `(${a}) ${b}-${c}`,
    (a: string, b: string, c: string) => `${a}-${b}-${c}`,
    (a: string, b: string, c: string) => `${a}.${b}.${c}`,
    (a: string, b: string, c: string) => `${a}${b}${c}`,
    (a: string, b: string, c: string) => `+1 ${a} ${b} ${c}`,
    (a: string, b: string, c: string) => `+1${a}${b}${c}`,
    (a: string, b: string, c: string) => `1-${a}-${b}-${c}`,
    (a: string, b: string, c: string) => `1 (${a}) ${b}-${c}`,
    (a: string, b: string, c: string) => `+1 (${a})${b}-${c}`,
  ];
  for (let i = 0; i < 400; i++) {
    const area = String(200 + next(800));
    const exchange = String(200 + next(800));
    const line = String(next(10_000)).padStart(4, '0');
    yield formats[i % formats.length]!(area, exchange, line);
  }
  yield '(555) 555-0123';
  yield '555-555-0160';
}

describe('normalizePhone on plain North American numbers', () => {
  it.each(['US', 'CA', 'PR', 'JM'] as CountryCode[])('matches libphonenumber for region %s', (region) => {
    for (const text of samples()) {
      expect(normalizePhone(text, region), text).toEqual({ ok: true, e164: viaLibphonenumber(text, region) });
    }
  });

  it('reads "+1" numbers the same from any region, and national digits by the region', () => {
    expect(normalizePhone('+1 212 555 0100', 'GB')).toEqual({ ok: true, e164: '+12125550100' });
    expect(normalizePhone('+1 212 555 0100', 'GB')).toEqual({ ok: true, e164: viaLibphonenumber('+1 212 555 0100', 'GB') });
    // Ten digits in Britain are a British number, not an American one.
    expect(normalizePhone('2079460958', 'GB')).toEqual({ ok: true, e164: '+442079460958' });
  });

  it('still refuses what the shortcut does not cover', () => {
    expect(normalizePhone('(155) 555-0100')).toMatchObject({ ok: false });
    expect(normalizePhone('(212) 155-0100')).toMatchObject({ ok: false });
    expect(normalizePhone('212-555-0100 x12')).toMatchObject({ ok: false });
    expect(normalizePhone('212-555-010')).toMatchObject({ ok: false });
    expect(normalizePhone('+2 212 555 0100')).toMatchObject({ ok: false });
  });
});
