/**
 * bin/code-cache.js names a command's cache without loading the bundle, so it keeps its
 * own copy of the global options that take a value (to skip `--profile sandbox`'s value
 * when looking for the command). This holds the copy equal to the command tree's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS_WITH_VALUES } from '../../src/cli/commands/global-options.js';

describe('bin/code-cache.js', () => {
  it("knows the same global options with values as the command tree", () => {
    const source = readFileSync(new URL('../../bin/code-cache.js', import.meta.url), 'utf8');
    const list = /const GLOBAL_OPTIONS_WITH_VALUES = new Set\((\[[^\]]*\])\);/.exec(source);
    expect(list, 'the Set literal in bin/code-cache.js').not.toBeNull();
    expect(new Set(JSON.parse(list![1]!.replace(/'/g, '"')) as string[])).toEqual(new Set(GLOBAL_OPTIONS_WITH_VALUES));
  });
});
