/**
 * Standard Webhooks signatures as `msgctl events listen` verifies them. The
 * sandbox signs with its own code (src/sandbox/webhooks/signing.ts); each side
 * is tested against the `standardwebhooks` package, not against the other.
 *
 * - secret: `whsec_` + base64 of random bytes; the HMAC key is the decoded bytes.
 * - signed content: `{webhook-id}.{webhook-timestamp}.{raw body}`.
 * - `webhook-signature`: space-separated `v1,<base64 HMAC-SHA256>` entries
 *   (several while a secret is being rotated); any one matching is enough.
 * - `webhook-timestamp`: unix seconds; deliveries further than the tolerance
 *   from the receiver's clock are refused, so a captured request cannot be
 *   replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export const HEADER_ID = 'webhook-id';
export const HEADER_TIMESTAMP = 'webhook-timestamp';
export const HEADER_SIGNATURE = 'webhook-signature';

/** The HMAC key of a secret; throws on anything that is not `whsec_<base64>`. */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new Error(`A webhook secret is "${SECRET_PREFIX}" followed by base64.`);
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 16) throw new Error('A webhook secret must decode to at least 16 bytes.');
  return key;
}

function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export type VerifyFailure =
  | { ok: false; reason: 'missing_headers'; message: string }
  | { ok: false; reason: 'bad_timestamp'; message: string }
  | { ok: false; reason: 'stale_timestamp'; message: string }
  | { ok: false; reason: 'bad_signature'; message: string };

export type VerifyResult = { ok: true; id: string; timestamp: number } | VerifyFailure;

export interface VerifyOptions {
  toleranceSeconds?: number;
  nowMs?: number;
}

type Headers = Record<string, string | string[] | undefined>;

export function verify(secret: string, headers: Headers, body: string, options: VerifyOptions = {}): VerifyResult {
  const id = single(headers[HEADER_ID]);
  const rawTimestamp = single(headers[HEADER_TIMESTAMP]);
  const signatures = single(headers[HEADER_SIGNATURE]);
  if (!id || !rawTimestamp || !signatures) {
    return { ok: false, reason: 'missing_headers', message: `needs ${HEADER_ID}, ${HEADER_TIMESTAMP} and ${HEADER_SIGNATURE} headers` };
  }
  if (!/^\d{1,12}$/.test(rawTimestamp)) {
    return { ok: false, reason: 'bad_timestamp', message: `${HEADER_TIMESTAMP} is not unix seconds` };
  }
  const timestamp = Number(rawTimestamp);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const skew = Math.abs((options.nowMs ?? Date.now()) / 1000 - timestamp);
  if (skew > tolerance) {
    return { ok: false, reason: 'stale_timestamp', message: `timestamp is ${Math.round(skew)}s away from now (tolerance ${tolerance}s)` };
  }
  const expected = Buffer.from(sign(secret, id, timestamp, body).slice('v1,'.length), 'base64');
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true, id, timestamp };
  }
  return { ok: false, reason: 'bad_signature', message: 'no v1 signature matches the secret' };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
