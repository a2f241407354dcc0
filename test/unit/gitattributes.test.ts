/**
 * A Windows clone (core.autocrlf=true) must check out the shell scripts and
 * sources with LF, and the fixtures byte for byte: .gitattributes decides both.
 * Asked of git itself; skipped outside a git checkout (an unpacked tarball).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function attributes(files: string[]): Map<string, Record<string, string>> {
  const out = execFileSync('git', ['check-attr', 'text', 'eol', '--', ...files], { cwd: root, encoding: 'utf8' });
  const byFile = new Map<string, Record<string, string>>();
  for (const line of out.trim().split('\n')) {
    const [file, attr, value] = line.split(': ');
    byFile.set(file!, { ...byFile.get(file!), [attr!]: value! });
  }
  return byFile;
}

describe.skipIf(!existsSync(join(root, '.git')))('.gitattributes', () => {
  it('checks out scripts and sources with LF whatever core.autocrlf says', () => {
    const attrs = attributes(['.ci/run', 'scripts/with-keyring.sh', 'scripts/build.mjs', 'src/cli/cli.ts', 'docs/platforms.md']);
    for (const [file, a] of attrs) {
      expect(a.eol, file).toBe('lf');
      expect(a.text, file).not.toBe('unset');
    }
  });

  it('leaves fixtures (BOMs, CRLF, UTF-16, binary) unconverted', () => {
    const attrs = attributes([
      'test/fixtures/csv/roster-semicolon.csv',
      'test/fixtures/csv/not-a-csv.bin',
      'test/fixtures/text/body-utf8-bom-crlf.txt',
      'test/fixtures/text/body-utf16le-bom.txt',
    ]);
    for (const [file, a] of attrs) expect(a.text, file).toBe('unset');
  });
});
