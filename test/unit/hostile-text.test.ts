import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { terminalSafe, wellFormedJson, stringifyWellFormed } from '../../src/cli/output/terminal-text.js';
import { FormulaGuard } from '../../src/cli/exports/formula-guard.js';
import { resolveApiUrl } from '../../src/cli/api/resolve-path.js';
import { isLoopbackHost } from '../../src/cli/api/transport.js';

describe('terminalSafe', () => {
  it('turns C0, DEL, C1, bidi and zero-width characters into visible escapes', () => {
    expect(terminalSafe('a\u001b]0;T\u0007b')).toBe('a\\x1b]0;T\\x07b');
    expect(terminalSafe('\u009b31m\u007f\u0000')).toBe('\\x9b31m\\x7f\\x00');
    expect(terminalSafe('\u202eevil\u202c\u2066\u2069\u200b\u200f\ufeff')).toBe('\\u202eevil\\u202c\\u2066\\u2069\\u200b\\u200f\\ufeff');
    expect(terminalSafe('x\ud800y')).toBe('x\\ud800y');
  });

  it('keeps ordinary text, emoji and accents; tabs and newlines only with keepLines', () => {
    expect(terminalSafe('Zoë 😀 ok')).toBe('Zoë 😀 ok');
    expect(terminalSafe('a\tb\nc')).toBe('a\\x09b\\x0ac');
    expect(terminalSafe('a\tb\nc\r\nd\re', { keepLines: true })).toBe('a\tb\nc\r\nd\\re');
  });
});

describe('well-formed JSON', () => {
  it('replaces lone surrogate escapes, keeps pairs and escaped backslashes', () => {
    expect(wellFormedJson('{"a":"x\\ud800y"}')).toBe('{"a":"x\\ufffdy"}');
    expect(wellFormedJson('{"a":"\\udc00"}')).toBe('{"a":"\\ufffd"}');
    expect(wellFormedJson('{"a":"\\ud83d\\ude00"}')).toBe('{"a":"\\ud83d\\ude00"}');
    expect(wellFormedJson('{"a":"\\\\ud800"}')).toBe('{"a":"\\\\ud800"}');
    expect(JSON.parse(stringifyWellFormed({ ['k\ud800']: 'v\udfff' }))).toEqual({ 'k\ufffd': 'v\ufffd' });
  });
});

async function guarded(csv: string, chunk = 3): Promise<string> {
  const parts: Buffer[] = [];
  for (let i = 0; i < csv.length; i += chunk) parts.push(Buffer.from(csv.slice(i, i + chunk)));
  let out = '';
  for await (const piece of Readable.from(parts).pipe(new FormulaGuard())) out += piece;
  return out;
}

describe('FormulaGuard', () => {
  it('prefixes cells starting with = + - @ tab CR, quoted or not, across chunk boundaries', async () => {
    expect(await guarded('a,=1+1,b\r\n"@x","q ""=y""",+3\n-4,"\tz","\r=w"\n')).toBe(
      'a,\'=1+1,b\r\n"\'@x","q ""=y""",\'+3\n\'-4,"\'\tz","\'\r=w"\n',
    );
    expect(await guarded('"""=a",,""\n')).toBe('"""=a",,""\n');
  });
});

describe('resolveApiUrl', () => {
  const base = new URL('http://127.0.0.1:4010/v1/');
  it('joins segments under the base path', () => {
    expect(resolveApiUrl(base, '/patients/p1?x=1').href).toBe('http://127.0.0.1:4010/v1/patients/p1?x=1');
    expect(resolveApiUrl(base, 'organization').href).toBe('http://127.0.0.1:4010/v1/organization');
  });
  it.each(['\\\\evil/x', '/\\evil', '../x', 'a/%2e%2e/x', '%5cevil', 'a%2Fb', '.', 'a/%zz'])('refuses %s', (path) => {
    expect(() => resolveApiUrl(base, path)).toThrow(/Refusing the path/);
  });
});

describe('isLoopbackHost', () => {
  it('is localhost, all of 127.0.0.0/8 and ::1', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['128.0.0.1', 'example.com', '[::2]', '10.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });
});
