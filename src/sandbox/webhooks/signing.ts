/**
 * Signing of webhook deliveries (Standard Webhooks, as api-spec's webhook
 * section requires), the sandbox's own: test/unit/webhook-signature.test.ts
 * checks it against the `standardwebhooks` package, not against the CLI's
 * verifier, so a mistake shared by both sides cannot hide.
 *
 * secret = "whsec_" + base64(key); signature = "v1," + base64(HMAC-SHA256(key,
 * "{id}.{timestamp}.{body}")), timestamp in unix seconds.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

export function signatureHeaders(secret: string, id: string, body: string, nowMs = Date.now()): Record<string, string> {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const timestamp = Math.floor(nowMs / 1000);
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac}` };
}
