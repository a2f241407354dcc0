/**
 * Body length as the service counts it: Unicode code points, so an emoji is one
 * character, not two UTF-16 units (documented in docs/sandbox.md).
 */
export function bodyLength(body: string): number {
  let n = 0;
  for (const _ of body) n++;
  return n;
}

/** Cuts a string to `width` columns for a table cell, marking the cut. */
export function truncate(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (width <= 1) return oneLine.slice(0, Math.max(0, width));
  const chars = [...oneLine];
  return chars.length <= width ? oneLine : chars.slice(0, width - 1).join('') + '…';
}
