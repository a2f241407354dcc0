/**
 * A record as a person reads it (output/record-view.ts): long values wrap under themselves, but
 * a link is never cut, which would leave pieces nobody can click or copy (found at 80 columns
 * with `exports get`'s download URL and an endpoint's URL).
 */
import { describe, expect, it } from 'vitest';
import { renderRecord } from '../../src/cli/output/record-view.js';
import { wrapWidth } from '../../src/cli/output/text-width.js';

const url = 'https://downloads.example.org/exports/01a21f34-2f1f-7531-8e85-7eb62e89b6ab?expires=1798761600&token=7fl2cJ39aQ';

describe('record views', () => {
  it('wrap prose under itself, within the width', () => {
    const out = renderRecord([{ label: 'body', value: 'word '.repeat(40).trim() }], 40);
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines.slice(1).every((l) => l.startsWith('      word'))).toBe(true);
  });

  it('keep a link whole, on a line of its own, beside its label or under it', () => {
    expect(renderRecord([{ label: 'download URL', value: url }], 80)).toBe(`download URL: ${url}\n`);
    expect(renderRecord([{ label: 'url', value: `see ${url} now` }], 60)).toBe(`url: see\n     ${url}\n     now\n`);
    // Too narrow for values beside labels: the value goes under its label, still whole.
    expect(renderRecord([{ label: 'download URL', value: url }], 30)).toBe(`download URL:\n  ${url}\n`);
  });

  it('still cut a long word that is not a link', () => {
    expect(wrapWidth('x'.repeat(25), 10)).toEqual(['xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx']);
    expect(wrapWidth(`a ${url}`, 20)).toEqual(['a', url]);
  });
});
