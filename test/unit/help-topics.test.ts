/**
 * Help beyond --help (issue 29 item 6): the topics, every MSGCTL_* variable
 * in the environment topic, and help laid out for the terminal (render.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../src/cli/help/registry.js';
import { TOPIC_NAMES } from '../../src/cli/commands/help/help.js';
import { renderHelp } from '../../src/cli/help/render.js';

const root = join(import.meta.dirname, '..', '..');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|js|mjs|sh)$/.test(entry.name)) yield path;
  }
}

describe('help topics', () => {
  it('one file per topic, listed in the registry, named in the root help', () => {
    expect(TOPICS.map((t) => t.name)).toEqual([...TOPIC_NAMES]);
    const files = readdirSync(join(root, 'src/cli/help/topics')).map((f) => f.replace(/\.ts$/, ''));
    expect(files.sort()).toEqual([...TOPIC_NAMES].sort());
    for (const topic of TOPICS) {
      expect(topic.summary.length, topic.name).toBeGreaterThan(10);
      expect(topic.text.length, topic.name).toBeGreaterThan(200);
    }
  });

  it('the environment topic lists every MSGCTL_* variable the source reads', () => {
    // Not read by msgctl: build defines, and what the test harness passes to the tests (with-keyring.sh's restart count).
    const notVariables = new Set(['MSGCTL_ATTEMPT_TIMEOUT', 'MSGCTL_VERSION__', 'MSGCTL_DIRECT_OUTPUT__', 'MSGCTL_WITH_KEYRING_INSIDE', 'MSGCTL_WITH_KEYRING_BUS_CONFIG', 'MSGCTL_TEST_ROOT_LINK', 'MSGCTL_TEST_BIN', 'MSGCTL_TEST_HOMES', 'MSGCTL_TEST_KEYRING_RESTARTS']);
    const found = new Map<string, string>();
    for (const dir of ['src', 'bin', 'scripts']) {
      for (const file of sourceFiles(join(root, dir))) {
        for (const m of readFileSync(file, 'utf8').matchAll(/MSGCTL_[A-Z0-9_]+/g)) if (!notVariables.has(m[0])) found.set(m[0], relative(root, file));
      }
    }
    expect(found.size).toBeGreaterThan(10);
    const text = TOPICS.find((t) => t.name === 'environment')!.text;
    for (const [name, where] of found) expect(text, `${name} (read in ${where})`).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });
});

describe('help laid out for the terminal', () => {
  const help = [
    'Usage: msgctl thing [options] <id>',
    '',
    'A description long enough to need wrapping at forty columns for sure, see docs/scripting.md.',
    '',
    'Options:',
    '  --flag <value>  a flag whose description is long enough to wrap at least once or twice',
    '  --a-very-long-flag-name-that-leaves-no-room <v>  then the description goes below it',
    '',
    'Examples:',
    '  msgctl thing --flag value --another-flag another-value | jq -r .something-long',
    '',
  ].join('\n');

  it('wraps prose and items to the width, never an example', () => {
    const out = renderHelp(help, { width: 40 });
    // An example, and a term longer than the line, are the only lines left longer.
    for (const line of out.split('\n')) if (!line.startsWith('  msgctl') && !line.includes('--a-very-long')) expect(line.length, line).toBeLessThanOrEqual(40);
    expect(out).toContain('  --flag <value>  a flag whose\n                  description is long\n');
    expect(out).toContain('  --a-very-long-flag-name-that-leaves-no-room <v>\n      then the description goes below it');
    expect(out).toContain('  msgctl thing --flag value --another-flag another-value | jq -r .something-long');
  });

  it('leaves what fits as it is, and points docs/ links at the installed docs', () => {
    expect(renderHelp(help, { width: 200 })).toBe(help);
    expect(renderHelp(help, { width: 200, docsDir: '/usr/lib/node_modules/msgctl/docs' })).toContain('see /usr/lib/node_modules/msgctl/docs/scripting.md.');
    expect(renderHelp('(docs/imports.md)', { width: 80, docsDir: 'C:\\npm\\msgctl\\docs', separator: '\\' })).toBe('(C:\\npm\\msgctl\\docs\\imports.md)');
  });
});
