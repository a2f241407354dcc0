/**
 * docs/reference.md is generated from the command tree; this fails as soon as
 * a command, flag, default or example changes without regenerating it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/cli.js';

async function generated(): Promise<string> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  let errors = '';
  stdout.on('data', (c) => (text += c));
  stderr.on('data', (c) => (errors += c));
  const code = await run(['__reference'], { io: { stdout, stderr, stdin: Readable.from([]) }, env: {} });
  expect(code, errors).toBe(0);
  return text;
}

describe('docs/reference.md', () => {
  it('is what `msgctl __reference` prints from the current command tree', async () => {
    const committed = readFileSync(resolve(import.meta.dirname, '../../docs/reference.md'), 'utf8');
    const current = await generated();
    // Compared as booleans first so the failure says what to do, then as text to show the difference.
    expect(committed === current, 'docs/reference.md is out of date: run `npm run docs:reference` and commit it').toBe(true);
    expect(committed).toBe(current);
  });

  it('documents every visible command with usage, options and examples', async () => {
    const md = await generated();
    expect(md).toContain('## msgctl patients list');
    expect(md).toContain('Usage: `msgctl patients list [options]`');
    expect(md).toMatch(/^\| `--channel <channel>` \| .+ \| {2}\| `secure`, `sms` \|$/m);
    expect(md).toMatch(/^\| `--limit <n>` \| .+ \| `50` \|/m);
    expect(md).toContain('```sh\nmsgctl api GET /organization\n');
    expect(md).not.toContain('__reference');
  });
});
