/**
 * The CLI's verifier (`events listen`) and the sandbox's signer, each held to
 * the published Standard Webhooks example and to the `standardwebhooks`
 * package — never to each other.
 */
import { describe, expect, it } from 'vitest';
import { secretKey, verify } from '../../src/cli/webhooks/signature.js';
import { signatureHeaders, generateWebhookSecret } from '../../src/sandbox/webhooks/signing.js';
import { referenceAccepts, referenceHeaders, referenceSecret } from '../helpers/standard-webhooks.js';

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

/** The same signature with one bit of its MAC flipped. */
function corrupt(signature: string): string {
  const mac = Buffer.from(signature.slice('v1,'.length), 'base64');
  mac[0] = mac[0]! ^ 1;
  return `v1,${mac.toString('base64')}`;
}

describe('the CLI verifier', () => {
  it('verifies the example, including among several signatures during rotation', () => {
    expect(verify(VECTOR.secret, vectorHeaders(), VECTOR.body, AT_VECTOR_TIME)).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
    const rotated = vectorHeaders({ 'webhook-signature': `v1,bm90IHRoaXMgb25l ${VECTOR.signature}` });
    expect(verify(VECTOR.secret, rotated, VECTOR.body, AT_VECTOR_TIME).ok).toBe(true);
  });

  it('accepts what the standardwebhooks package signs', () => {
    const secret = referenceSecret();
    const body = '{"type":"message.created","payload":{"body":"Ünïcode 👍"}}';
    expect(verify(secret, referenceHeaders(secret, 'evt_1', body), body)).toMatchObject({ ok: true, id: 'evt_1' });
  });

  it('rejects a deliberately wrong signature', () => {
    const secret = referenceSecret();
    const body = '{"a":1}';
    const headers = referenceHeaders(secret, 'evt_1', body);
    const wrong = { ...headers, 'webhook-signature': corrupt(headers['webhook-signature']!) };
    expect(verify(secret, wrong, body)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verify(VECTOR.secret, vectorHeaders({ 'webhook-signature': corrupt(VECTOR.signature) }), VECTOR.body, AT_VECTOR_TIME)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a changed body, id, or another secret', () => {
    expect(verify(VECTOR.secret, vectorHeaders(), VECTOR.body + ' ', AT_VECTOR_TIME)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verify(VECTOR.secret, vectorHeaders({ 'webhook-id': 'msg_other' }), VECTOR.body, AT_VECTOR_TIME)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verify(referenceSecret(), vectorHeaders(), VECTOR.body, AT_VECTOR_TIME)).toMatchObject({ ok: false, reason: 'bad_signature' });
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

  it('rejects secrets that are not base64', () => {
    expect(() => secretKey('whsec_not base64!')).toThrow(/base64/);
  });
});

describe('the sandbox signer', () => {
  it('signs the Standard Webhooks example exactly', () => {
    expect(signatureHeaders(VECTOR.secret, VECTOR.id, VECTOR.body, VECTOR.timestamp * 1000)).toEqual(vectorHeaders());
  });

  it('produces deliveries the standardwebhooks package accepts', () => {
    const secret = generateWebhookSecret();
    const body = '{"type":"message.created","payload":{"body":"Ünïcode 👍"}}';
    expect(referenceAccepts(secret, signatureHeaders(secret, 'evt_1', body, Date.now()), body)).toBe(true);
  });

  it('is told apart from a broken signature by the reference (so the check above can fail)', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders(secret, 'evt_1', '{}', Date.now());
    expect(referenceAccepts(secret, { ...headers, 'webhook-signature': corrupt(headers['webhook-signature']!) }, '{}')).toBe(false);
    expect(referenceAccepts(secret, headers, '{"changed":true}')).toBe(false);
  });

  it('generates secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});
