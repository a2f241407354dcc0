/**
 * The sandbox's reading of `phone` fields (api-spec §2.3: "any common format;
 * stored as E.164"), written here from the spec rather than borrowed from the
 * CLI, so a misreading on one side shows up as a disagreement in tests.
 *
 * The sandbox's organisation is a US clinic, so national numbers are read as
 * US numbers. A number is accepted when libphonenumber-js finds it possible
 * (right length for its country): fictional 555-01xx numbers are not assigned,
 * yet they are what docs and tests use. NANP numbers must also have an area
 * code and exchange starting 2–9, which length alone does not check.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

export type PhoneCheck = { ok: true; e164: string } | { ok: false; reason: string };

const ALLOWED = /^\+?[0-9\s()\-./]+$/;
const NANP_NATIONAL = /^[2-9]\d{2}[2-9]\d{6}$/;

/** E.164 for `input`; national numbers are read in `country` (the sandbox's clinic is in the US). */
export function normalizePhone(input: string, country: CountryCode = 'US'): PhoneCheck {
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  if (/[a-z#]/i.test(text)) return { ok: false, reason: 'contains letters or an extension' };
  if (!ALLOWED.test(text)) return { ok: false, reason: 'contains characters that are not part of a phone number' };
  const parsed = parsePhoneNumberFromString(text, country);
  if (!parsed || !parsed.isPossible()) return { ok: false, reason: 'wrong number of digits for a phone number' };
  if (parsed.countryCallingCode === '1' && !NANP_NATIONAL.test(parsed.nationalNumber)) {
    return { ok: false, reason: 'area code and exchange cannot start with 0 or 1' };
  }
  return { ok: true, e164: parsed.number };
}
