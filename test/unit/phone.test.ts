import { describe, expect, it } from 'vitest';
import { isSupportedRegion, normalizePhone } from '../../src/cli/util/phone.js';
import { looksLikeUuid } from '../../src/cli/util/ids.js';

describe('normalizePhone', () => {
  it.each([
    '(555) 555-0123',
    '555.555.0123',
    '555-555-0123',
    '+1 555 555 0123',
    '15555550123',
    '1 (555) 555-0123',
    '+15555550123',
    '  555 555 0123  ',
    '555/555/0123',
  ])('accepts the fictional 555 number %j as +15555550123', (input) => {
    expect(normalizePhone(input)).toEqual({ ok: true, e164: '+15555550123' });
  });

  it('accepts real-looking numbers of other regions', () => {
    expect(normalizePhone('+44 20 7946 0958')).toEqual({ ok: true, e164: '+442079460958' });
    expect(normalizePhone('020 7946 0958', 'GB')).toEqual({ ok: true, e164: '+442079460958' });
    expect(normalizePhone('020 7946 0958', 'gb')).toEqual({ ok: true, e164: '+442079460958' });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['abc', 'contains letters'],
    ['1-800-FLOWERS', 'contains letters'],
    ['555-0123', 'too short'],
    ['123', 'too short'],
    ['5555550123555', 'too long'],
    ['(555)555-0123abc', 'contains letters'],
    ['555 555 0123 x12', 'extension'],
    ['555-555-0123 ext. 7', 'extension'],
    ['555_555_0123', 'characters'],
    ['555+5550123', '"+"'],
    ['+1 055 555 0123', 'cannot start with 0 or 1'],
    ['(555) 155-0123', 'cannot start with 0 or 1'],
    ['+999 1234 5678', 'country calling code'],
  ])('rejects %j with a reason mentioning %j', (input, reason) => {
    const result = normalizePhone(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('rejects an unknown region instead of guessing', () => {
    expect(normalizePhone('555 555 0123', 'XX')).toEqual({ ok: false, reason: 'unknown region "XX"' });
    expect(isSupportedRegion('XX')).toBe(false);
    expect(isSupportedRegion('us')).toBe(true);
  });
});

describe('looksLikeUuid', () => {
  it('recognises UUIDs in any case and version', () => {
    expect(looksLikeUuid('3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe(true);
    expect(looksLikeUuid('3F2504E0-4F89-41D3-9A0C-0305E82C3301')).toBe(true);
  });

  it('does not mistake phone numbers or near-misses for UUIDs', () => {
    expect(looksLikeUuid('+15555550123')).toBe(false);
    expect(looksLikeUuid('3f2504e0-4f89-11d3-9a0c-0305e82c330')).toBe(false);
    expect(looksLikeUuid(' 3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe(false);
    expect(looksLikeUuid('3f2504e04f8911d39a0c0305e82c3301')).toBe(false);
  });
});
