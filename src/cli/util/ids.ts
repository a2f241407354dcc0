/**
 * `--to` and similar arguments take either a patient id or a phone number, so
 * commands need a cheap way to tell them apart before any request is made.
 * Any version (and the nil UUID) is accepted: the sandbox and the service only
 * promise "UUID", not a particular version.
 */
import { UsageError } from '../errors.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function looksLikeUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** The value of an --idempotency-key flag: a UUID (a usage error otherwise), lower-cased. */
export function idempotencyKeyFlag(given: string): string {
  if (!looksLikeUuid(given)) throw new UsageError(`--idempotency-key must be a UUID (got "${given}").`);
  return given.toLowerCase();
}

/**
 * The UUID text of 32 hex digits (a hash, random bytes) with its version digit and the
 * RFC 9562 variant bits set: the shared last step of a random (v4) and a name-based (v5) id.
 * On a hex string rather than bytes: cheaper per batch row than a Buffer round trip.
 */
export function uuidFromHex(hex: string, version: 4 | 5): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${version}${hex.slice(13, 16)}-${VARIANT[hex[16]!]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A hex digit with its top two bits set to 10: the RFC variant. */
const VARIANT: Record<string, string> = Object.fromEntries([...'0123456789abcdef'].map((d, i) => [d, '89ab'[i & 3]!]));
