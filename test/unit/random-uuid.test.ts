import { afterEach, describe, expect, it } from 'vitest';
import { randomUuid } from '../../src/cli/util/random-uuid.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;

describe('randomUuid (Idempotency-Key)', () => {
  afterEach(() => Object.defineProperty(process, 'platform', platform));

  it('is a version 4, RFC 9562 variant UUID, lower case', () => {
    for (let i = 0; i < 200; i++) expect(randomUuid()).toMatch(V4);
  });

  it('never repeats, and every random hex digit varies', () => {
    const keys = Array.from({ length: 2000 }, () => randomUuid());
    expect(new Set(keys).size).toBe(keys.length);
    // Positions fixed by the format (dashes, version) aside, each position takes many values.
    for (const at of [0, 7, 9, 15, 20, 35]) expect(new Set(keys.map((k) => k[at])).size).toBeGreaterThan(8);
  });

  it('falls back to node:crypto where /dev/urandom is not used (Windows)', () => {
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    const keys = Array.from({ length: 50 }, () => randomUuid());
    for (const key of keys) expect(key).toMatch(V4);
    expect(new Set(keys).size).toBe(50);
  });
});
