/**
 * A token bucket per credential: --rate-limit requests per second, with one
 * second of burst (at least one request, so a limit below 1/s still admits
 * one request every 1/rate seconds). An empty bucket answers 429 rate_limited with Retry-After
 * in whole seconds, as api-spec §8 says.
 */
import type { SandboxContext } from '../context.js';
import { ProblemError } from '../problem.js';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

const buckets = new WeakMap<SandboxContext, Map<string, Bucket>>();

export function checkRateLimit(sb: SandboxContext, principalId: string): void {
  const rate = sb.options.rateLimit;
  if (!rate) return;
  let perSandbox = buckets.get(sb);
  if (!perSandbox) buckets.set(sb, (perSandbox = new Map()));
  const now = Date.now();
  const capacity = Math.max(1, rate);
  const bucket = perSandbox.get(principalId) ?? { tokens: capacity, updatedMs: now };
  bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.updatedMs) / 1000) * rate);
  bucket.updatedMs = now;
  perSandbox.set(principalId, bucket);
  if (bucket.tokens < 1) {
    const waitSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
    throw new ProblemError(429, 'rate_limited', `Too many requests: the limit is ${rate} per second.`, [], {}, {
      'retry-after': String(waitSeconds),
    });
  }
  bucket.tokens -= 1;
}
