/**
 * PKCE (RFC 7636) and the `state` value: the CLI makes a fresh verifier and
 * state per login; the sandbox's token endpoint checks the verifier against
 * the challenge it saw at /oauth/authorize. Only S256 is used: `plain` would
 * send the secret itself through the browser.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43–128 characters from the unreserved set. */
const VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is a base64url SHA-256: always 43 characters. */
const S256_CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** 32 random bytes → a 43-character verifier (256 bits, the RFC's recommendation). */
export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier), method: 'S256' };
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function isValidVerifier(verifier: string): boolean {
  return VERIFIER_RE.test(verifier);
}

export function isValidS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE_RE.test(challenge);
}

/** Does `verifier` hash to `challenge`? Malformed verifiers never match. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isValidVerifier(verifier) || !isValidS256Challenge(challenge)) return false;
  const expected = Buffer.from(challenge, 'ascii');
  const actual = Buffer.from(s256Challenge(verifier), 'ascii');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** An unguessable `state` for one login, checked on the callback (CSRF, RFC 6749 §10.12). */
export function createState(): string {
  return randomBytes(24).toString('base64url');
}
