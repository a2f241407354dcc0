import { describe, expect, it } from 'vitest';
import { createPkcePair, createState, isValidVerifier, s256Challenge, verifierMatches } from '../../src/contract/pkce.js';

describe('PKCE', () => {
  it('computes the S256 challenge of RFC 7636 Appendix B', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes fresh 43-character verifiers from the unreserved set, with matching challenges', () => {
    const pairs = Array.from({ length: 50 }, () => createPkcePair());
    for (const p of pairs) {
      expect(p.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(isValidVerifier(p.verifier)).toBe(true);
      expect(p.method).toBe('S256');
      expect(verifierMatches(p.verifier, p.challenge)).toBe(true);
    }
    expect(new Set(pairs.map((p) => p.verifier)).size).toBe(50);
  });

  it('rejects a different verifier, a malformed one, and a plain challenge', () => {
    const a = createPkcePair();
    const b = createPkcePair();
    expect(verifierMatches(b.verifier, a.challenge)).toBe(false);
    expect(verifierMatches('short', s256Challenge('short'))).toBe(false);
    expect(verifierMatches('x'.repeat(129), s256Challenge('x'.repeat(129)))).toBe(false);
    // "plain": the challenge is the verifier itself, which must never pass as S256.
    expect(verifierMatches(a.verifier, a.verifier)).toBe(false);
  });

  it('accepts verifiers of 43 to 128 unreserved characters only', () => {
    expect(isValidVerifier('a'.repeat(43))).toBe(true);
    expect(isValidVerifier('A-._~'.repeat(25) + 'abc')).toBe(true);
    expect(isValidVerifier('a'.repeat(42))).toBe(false);
    expect(isValidVerifier('a'.repeat(43) + '+')).toBe(false);
  });

  it('makes unguessable, distinct states', () => {
    const states = new Set(Array.from({ length: 100 }, () => createState()));
    expect(states.size).toBe(100);
    for (const s of states) expect(s.length).toBeGreaterThanOrEqual(32);
  });
});
