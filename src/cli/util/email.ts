/**
 * A deliberately loose email check, the same everywhere (CLI flags, CSV rows,
 * the sandbox): something@domain.tld with a TLD of two or more letters. Real
 * deliverability is the service's business; this only catches typos and
 * values in the wrong column.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}
