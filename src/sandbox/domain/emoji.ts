/**
 * "A single emoji" (api-spec §4.9, POST /messages/{id}/reactions) as a real
 * check rather than a length test: exactly one user-perceived character
 * (grapheme cluster) that is an RGI emoji — so 👍🏽, 👨‍👩‍👧 and 🇺🇸 pass while
 * "👍👍", "ok" or "a" do not. A text-style pictograph typed without its
 * variation selector (❤ instead of ❤️) is accepted and stored in its emoji
 * form, so adding "❤" and removing "❤️" refer to the same reaction.
 */

// Built with the constructor: the `v` flag (needed for \p{RGI_Emoji}, a
// property of strings) is newer than the compile target's regex syntax.
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
const EMOJI_PRESENTATION = '\uFE0F';
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

export type EmojiCheck =
  | { ok: true; emoji: string }
  | { ok: false; code: 'required' | 'too_many_emoji' | 'not_an_emoji'; message: string };

export function checkSingleEmoji(input: unknown): EmojiCheck {
  if (typeof input !== 'string' || input.length === 0) {
    return { ok: false, code: 'required', message: 'emoji is required: one emoji such as 👍.' };
  }
  const clusters = [...graphemes.segment(input)].map((s) => s.segment);
  if (clusters.length !== 1) {
    const allEmoji = clusters.every((c) => canonicalEmoji(c) !== null);
    return allEmoji
      ? { ok: false, code: 'too_many_emoji', message: `emoji must be exactly one emoji (got ${clusters.length}).` }
      : { ok: false, code: 'not_an_emoji', message: 'emoji must be exactly one emoji, not text.' };
  }
  const emoji = canonicalEmoji(input);
  if (emoji === null) return { ok: false, code: 'not_an_emoji', message: 'emoji must be an emoji, not text.' };
  return { ok: true, emoji };
}

/** The fully-qualified form of one grapheme, or null when it is not an emoji. */
function canonicalEmoji(cluster: string): string | null {
  if (RGI_EMOJI.test(cluster)) return cluster;
  if (!cluster.endsWith(EMOJI_PRESENTATION) && RGI_EMOJI.test(cluster + EMOJI_PRESENTATION)) {
    return cluster + EMOJI_PRESENTATION;
  }
  return null;
}
