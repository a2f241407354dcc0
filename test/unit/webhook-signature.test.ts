import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, secretKey, sign, signatureHeaders, verify } from '../../src/cli/webhooks/signature.js';

// The published Standard Webhooks example: proves interoperability, not just self-consistency.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const AT_VECTOR_TIME = { nowMs: VECTOR.timestamp * 1000 };

function vectorHeaders(overrides: Record<string, string> = {}) {
  return {
    'webhook-id': VECTOR.id,
    'webhook-timestamp': String(VECTOR.timestamp),
    'webhook-signature': VECTOR.signature,
    ...overrides,
  };
}

describe('webhook signatures', () => {
  it('signs the Standard Webhooks example exactly', () => {
    expect(sign(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it('verifies the example, including among several signatures during rotation', () => {
    expect(verify(VECTOR.secret, vectorHeaders(), VECTOR.body, AT_VECTOR_TIME)).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
    const rotated = vectorHeaders({ 'webhook-signature': `v1,bm90IHRoaXMgb25l ${VECTOR.signature}` });
    expect(verify(VECTOR.secret, rotated, VECTOR.body, AT_VECTOR_TIME).ok).toBe(true);
  });

  it('refuses a changed body, id, or another secret', () => {
    expect(verify(VECTOR.secret, vectorHeaders(), VECTOR.body + ' ', AT_VECTOR_TIME)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verify(VECTOR.secret, vectorHeaders({ 'webhook-id': 'msg_other' }), VECTOR.body, AT_VECTOR_TIME)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verify(generateWebhookSecret(), vectorHeaders(), VECTOR.body, AT_VECTOR_TIME)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('refuses timestamps outside the tolerance either way, and accepts inside it', () => {
    const at = (offsetSeconds: number) => ({ nowMs: (VECTOR.timestamp + offsetSeconds) * 1000 });
    expect(verify(VECTOR.secret, vectorHeaders(), VECTOR.body, at(301))).toMatchObject({ ok: false, reason: 'stale_timestamp' });
    expect(verify(VECTOR.secret, vectorHeaders(), VECTOR.body, at(-301))).toMatchObject({ ok: false, reason: 'stale_timestamp' });
    expect(verify(VECTOR.secret, vectorHeaders(), VECTOR.body, at(299)).ok).toBe(true);
  });

  it('refuses missing headers, malformed timestamps and non-v1 schemes', () => {
    expect(verify(VECTOR.secret, { 'webhook-id': VECTOR.id }, VECTOR.body, AT_VECTOR_TIME)).toMatchObject({ reason: 'missing_headers' });
    expect(verify(VECTOR.secret, vectorHeaders({ 'webhook-timestamp': '16142e5' }), VECTOR.body, AT_VECTOR_TIME)).toMatchObject({ reason: 'bad_timestamp' });
    const v2 = vectorHeaders({ 'webhook-signature': VECTOR.signature.replace('v1,', 'v2,') });
    expect(verify(VECTOR.secret, v2, VECTOR.body, AT_VECTOR_TIME)).toMatchObject({ reason: 'bad_signature' });
  });

  it('generates secrets of at least 24 random bytes that round-trip through its own headers', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(secretKey(secret).length).toBeGreaterThanOrEqual(24);
    expect(generateWebhookSecret()).not.toBe(secret);
    const headers = signatureHeaders(secret, 'evt_1', '{"a":1}');
    expect(verify(secret, headers, '{"a":1}').ok).toBe(true);
  });

  it('rejects secrets that are not base64', () => {
    expect(() => secretKey('whsec_not base64!')).toThrow(/base64/);
  });
});
