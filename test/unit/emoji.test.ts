import { describe, expect, it } from 'vitest';
import { checkSingleEmoji } from '../../src/sandbox/domain/emoji.js';

describe('checkSingleEmoji', () => {
  it.each(['👍', '👍🏽', '👨‍👩‍👧', '🇺🇸', '❤️', '#️⃣', '🧑🏾‍⚕️'])('accepts the single emoji %s', (emoji) => {
    expect(checkSingleEmoji(emoji)).toEqual({ ok: true, emoji });
  });

  it('stores a text-style pictograph in its emoji form', () => {
    expect(checkSingleEmoji('❤')).toEqual({ ok: true, emoji: '❤️' });
  });

  it.each(['👍👍', '👍🏽🎉', '🇺🇸🇨🇦'])('refuses two emoji %s as too_many_emoji', (input) => {
    expect(checkSingleEmoji(input)).toMatchObject({ ok: false, code: 'too_many_emoji' });
  });

  it.each(['a', 'ok', '1', ':+1:', '👍 ', 'x👍', ' '])('refuses text %j as not_an_emoji', (input) => {
    expect(checkSingleEmoji(input)).toMatchObject({ ok: false, code: 'not_an_emoji' });
  });

  it.each([undefined, null, '', 42])('requires a string: %j', (input) => {
    expect(checkSingleEmoji(input)).toMatchObject({ ok: false, code: 'required' });
  });
});
