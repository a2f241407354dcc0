/**
 * `--to` and similar arguments take either a patient id or a phone number, so
 * commands need a cheap way to tell them apart before any request is made.
 * Any version (and the nil UUID) is accepted: the sandbox and the service only
 * promise "UUID", not a particular version.
 */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function looksLikeUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
