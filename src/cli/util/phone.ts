/**
 * Phone numbers as operators type them, turned into the E.164 form the service
 * stores (api-spec §2.3).
 *
 * product.md §3: a number is accepted when it is well-formed and *possible* for
 * its region, not only when it is assigned. libphonenumber's `isValid()` checks
 * assigned ranges and so rejects the fictional 555-01xx numbers used in docs,
 * tests and the sandbox; we use `isPossible()` (length rules) instead, plus the
 * structural NANP rule that neither the area code nor the exchange begins with
 * 0 or 1, which length alone does not catch.
 */
import { createRequire } from 'node:module';
import type { CountryCode } from 'libphonenumber-js';

type PhoneLibrary = typeof import('libphonenumber-js');
let library: PhoneLibrary | undefined;
/**
 * libphonenumber-js and its metadata take longer to load than the rest of a
 * `send` (over a hundred modules): it is loaded, synchronously, the first time
 * a number is not one of the plain North American shapes below.
 */
function phoneLibrary(): PhoneLibrary {
  return (library ??= createRequire(import.meta.url)('libphonenumber-js') as PhoneLibrary);
}

/** The regions of the North American Numbering Plan (country calling code 1). */
const NANP_REGIONS = new Set([
  'US', 'CA', 'AG', 'AI', 'AS', 'BB', 'BM', 'BS', 'DM', 'DO', 'GD', 'GU', 'JM', 'KN', 'KY',
  'LC', 'MP', 'MS', 'PR', 'SX', 'TC', 'TT', 'VC', 'VG', 'VI',
]);

export type PhoneResult = { ok: true; e164: string } | { ok: false; reason: string };

/** Characters people put in phone numbers; anything else is not a number. */
const PHONE_CHARACTERS = /^[0-9\s()+\-./]+$/;
/** "555-555-0123 x12", "ext. 12", "#12": an extension cannot be texted. */
const EXTENSION = /(?:ext\.?|extension|x|#)\s*\d+$/i;
/** NANP (+1) national number: NPA and NXX both start with 2-9. */
const NANP_NATIONAL = /^[2-9]\d{2}[2-9]\d{6}$/;
/**
 * The everyday North American shapes, "(212) 555-0100", "212-555-0100",
 * "212.555.0100", "2125550100", "+1 212 555 0100": for these libphonenumber
 * always answers +1 and the ten digits, and asking it costs ~100 µs a number,
 * most of a CSV row's time. Anything else takes the full path below.
 */
const NANP_PLAIN = /^(\+1[\s.-]?|1[\s.-]?)?\(?([2-9]\d{2})\)?[\s.-]?([2-9]\d{2})[\s.-]?(\d{4})$/;
function usesNanp(country: string): boolean {
  return NANP_REGIONS.has(country);
}

const LENGTH_REASONS: Record<string, string> = {
  TOO_SHORT: 'too short to be a phone number',
  TOO_LONG: 'too long to be a phone number',
  INVALID_LENGTH: 'wrong number of digits for its country',
  INVALID_COUNTRY: 'unknown country calling code',
  NOT_A_NUMBER: 'not a phone number',
};

/** For validating a `--region` flag once, before any row is read. */
export function isSupportedRegion(region: string): region is CountryCode {
  const country = region.toUpperCase();
  return NANP_REGIONS.has(country) || phoneLibrary().isSupportedCountry(country);
}

export function normalizePhone(input: string, region = 'US'): PhoneResult {
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  const country = region.toUpperCase();
  if (!isSupportedRegion(country)) return { ok: false, reason: `unknown region "${region}"` };
  const plain = NANP_PLAIN.exec(text);
  // Without "+1" the digits are national, so only a +1 region reads them as North American.
  if (plain && (plain[1]?.startsWith('+') || usesNanp(country))) return { ok: true, e164: `+1${plain[2]}${plain[3]}${plain[4]}` };
  if (EXTENSION.test(text) && /\d{7}/.test(text.replace(/\D/g, ''))) {
    return { ok: false, reason: 'has an extension; texts need a number without one' };
  }
  if (/[a-z]/i.test(text)) return { ok: false, reason: 'contains letters' };
  if (!PHONE_CHARACTERS.test(text)) return { ok: false, reason: 'contains characters that are not part of a phone number' };
  if (text.lastIndexOf('+') > 0) return { ok: false, reason: '"+" may only start the number' };

  const { validatePhoneNumberLength, parsePhoneNumberWithError } = phoneLibrary();
  const lengthProblem = validatePhoneNumberLength(text, country);
  if (lengthProblem) return { ok: false, reason: LENGTH_REASONS[lengthProblem] ?? 'not a phone number' };

  let parsed;
  try {
    parsed = parsePhoneNumberWithError(text, country);
  } catch (error) {
    const code = error instanceof Error ? error.message : '';
    return { ok: false, reason: LENGTH_REASONS[code] ?? 'not a phone number' };
  }
  if (!parsed.isPossible()) return { ok: false, reason: 'wrong number of digits for its country' };
  if (parsed.countryCallingCode === '1' && !NANP_NATIONAL.test(parsed.nationalNumber)) {
    return { ok: false, reason: 'area code and exchange cannot start with 0 or 1' };
  }
  return { ok: true, e164: parsed.number };
}

/**
 * For a number that failed: one written without its country code is read as a
 * number of `region`, so a number from elsewhere fails there. Say how to say so.
 */
export function regionHint(input: string, region: string): string[] {
  const text = input.trim();
  if (text === '' || text.startsWith('+') || !/\d/.test(text)) return [];
  return [
    `Numbers without a country code are read as ${region.toUpperCase()} numbers. If this one is from another country, ` +
      'write it with its code (+44 20 7946 0018) or pass --region with the country (e.g. --region GB).',
  ];
}
