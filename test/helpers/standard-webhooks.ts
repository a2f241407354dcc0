/**
 * The outside reference for webhook signatures: the `standardwebhooks`
 * package. The sandbox's signer and the CLI's verifier are each tested
 * against it, never against each other, so a misreading they share shows up.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export function referenceSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64');
}

/** Headers for one delivery, signed by the reference implementation. */
export function referenceHeaders(secret: string, id: string, body: string, nowMs = Date.now()): Record<string, string> {
  const timestamp = new Date(nowMs);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(nowMs / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, timestamp, body),
  };
}

/** Does the reference implementation accept this delivery (signature and timestamp)? */
export function referenceAccepts(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v[0]! : v;
  try {
    new Webhook(secret).verify(body, flat);
    return true;
  } catch {
    return false;
  }
}
