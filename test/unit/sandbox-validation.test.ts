/**
 * The sandbox's own field checks (src/sandbox/validation), read from the API
 * spec independently of the CLI's helpers.
 */
import { describe, expect, it } from 'vitest';
import { normalizePhone } from '../../src/sandbox/validation/phone.js';
import { bodyLength, looksLikeEmail, looksLikeUuid } from '../../src/sandbox/validation/formats.js';

describe('sandbox phone numbers', () => {
  it.each([
    ['(555) 555-0123', '+15555550123'],
    ['555.555.0123', '+15555550123'],
    ['1-212-555-0100', '+12125550100'],
    ['+1 212 555 0100', '+12125550100'],
    ['+44 20 7946 0958', '+442079460958'],
    ['  2125550100 ', '+12125550100'],
  ])('stores %s as %s', (input, e164) => {
    expect(normalizePhone(input)).toEqual({ ok: true, e164 });
  });

  it.each(['', 'abc', '555-0123', '212-555-0100 x12', '(055) 555-0123', '212-055-0100', '+1 212 555 0100 0000', '212+555+0100', '212_555_0100'])(
    'refuses %j',
    (input) => {
      expect(normalizePhone(input).ok).toBe(false);
    },
  );
});

describe('sandbox formats', () => {
  it('knows UUIDs of any version, and nothing else', () => {
    expect(looksLikeUuid('00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(looksLikeUuid('5B0E6F7C-3A41-4D2E-9F10-8C7B6A5D4E3F')).toBe(true);
    expect(looksLikeUuid('5b0e6f7c-3a41-4d2e-9f10-8c7b6a5d4e3')).toBe(false);
    expect(looksLikeUuid('5b0e6f7c3a414d2e9f108c7b6a5d4e3f')).toBe(false);
  });

  it('takes something@domain.tld as an email', () => {
    expect(looksLikeEmail('ada@example.com')).toBe(true);
    expect(looksLikeEmail('ada@example')).toBe(false);
    expect(looksLikeEmail('ada example@example.com')).toBe(false);
  });

  it('counts body length in code points', () => {
    expect(bodyLength('👍👍')).toBe(2);
    expect(bodyLength('é')).toBe(1);
  });
});
