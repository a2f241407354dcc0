/**
 * Small format checks the sandbox applies to request fields (api-spec §2):
 * ids are UUIDs (any version, as the spec only says "UUID"), emails are
 * something@domain.tld, and body lengths count Unicode code points, so an
 * emoji is one character.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/;

export function looksLikeUuid(value: string): boolean {
  return UUID.test(value);
}

export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value);
}

export function bodyLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
