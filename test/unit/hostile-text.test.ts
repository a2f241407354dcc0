import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { jsonForTerminal, terminalSafe, wellFormedJson, stringifyWellFormed } from '../../src/cli/output/terminal-text.js';
import { FormulaGuard } from '../../src/cli/exports/formula-guard.js';
import { resolveApiUrl } from '../../src/cli/api/resolve-path.js';
import { isLoopbackHost } from '../../src/cli/api/loopback.js';

describe('terminalSafe', () => {
  it('turns C0, DEL, C1, bidi and zero-width characters into visible escapes', () => {
    expect(terminalSafe('a\u001b]0;T\u0007b')).toBe('a\\x1b]0;T\\x07b');
    expect(terminalSafe('\u009b31m\u007f\u0000')).toBe('\\x9b31m\\x7f\\x00');
    expect(terminalSafe('\u202eevil\u202c\u2066\u2069\u200b\u200f\ufeff')).toBe('\\u202eevil\\u202c\\u2066\\u2069\\u200b\\u200f\\ufeff');
    expect(terminalSafe('x\ud800y')).toBe('x\\ud800y');
  });

  it('escapes every ASCII control and DEL and nothing else of ASCII, alone or in plain ASCII text (the fast path)', () => {
    for (let code = 0; code < 0x80; code++) {
      const ch = String.fromCharCode(code);
      const expected = code >= 0x20 && code < 0x7f ? ch : `\\x${code.toString(16).padStart(2, '0')}`;
      expect(terminalSafe(ch), code.toString(16)).toBe(expected);
      expect(terminalSafe(`plain ${ch} text`), code.toString(16)).toBe(`plain ${expected} text`);
      expect(jsonForTerminal(`["${ch}"]`), code.toString(16)).toBe(code >= 0x20 && code < 0x7f || ch === '\t' || ch === '\n' || ch === '\r' ? `["${ch}"]` : `["\\u${code.toString(16).padStart(4, '0')}"]`);
    }
    expect(terminalSafe('line one\n\tline two\r\n', { keepLines: true })).toBe('line one\n\tline two\r\n');
    expect(terminalSafe('over\rwritten', { keepLines: true })).toBe('over\\rwritten');
  });

  it('escapes every invisible character: format characters, tags, variation selectors, fillers', () => {
    const invisible = [0xad, 0x34f, 0x115f, 0x1160, 0x17b4, 0x180b, 0x2028, 0x2029, 0x2061, 0x206a, 0x206f, 0x2800, 0x3164, 0xfe00, 0xfe0e, 0xffa0, 0xe0000, 0xe0001, 0xe0041, 0xe007f, 0xe0100, 0xe01ef];
    for (const code of invisible) {
      const escaped = terminalSafe(`a${String.fromCodePoint(code)}b`);
      expect(escaped, code.toString(16)).toMatch(/^a\\(x[0-9a-f]{2}|u[0-9a-f]{4}|u\{[0-9a-f]+\})b$/);
    }
    expect(terminalSafe('hi\u{E0068}\u{E0069}')).toBe('hi\\u{e0068}\\u{e0069}');
  });

  it('keeps a presentation selector right after an emoji (a reaction), escapes it anywhere else', () => {
    expect(terminalSafe('\u2764\ufe0f 1\ufe0f\u20e3')).toBe('\u2764\ufe0f 1\ufe0f\u20e3');
    expect(terminalSafe('a\ufe0f')).toBe('a\\ufe0f');
    expect(terminalSafe('\u2764\ufe0f\ufe0f')).toBe('\u2764\ufe0f\\ufe0f');
    expect(terminalSafe('\u2764\ufe00')).toBe('\u2764\\ufe00');
  });

  it('keeps ordinary text, emoji and accents; tabs and newlines only with keepLines', () => {
    expect(terminalSafe('Zoë 😀 ok')).toBe('Zoë 😀 ok');
    expect(terminalSafe('a\tb\nc')).toBe('a\\x09b\\x0ac');
    expect(terminalSafe('a\tb\nc\r\nd\re', { keepLines: true })).toBe('a\tb\nc\r\nd\\re');
  });
});

describe('jsonForTerminal', () => {
  it('escapes the same set as \\u escapes, and the value read back is the same', () => {
    const value = { name: 'a\u009b2J\u202e\u200b\u00ad\u{E0041}\u3164\ufe00x\u2764\ufe0f', n: 1, tab: 'a\tb' };
    const json = JSON.stringify(value);
    const shown = jsonForTerminal(json);
    expect(shown).toBe('{"name":"a\\u009b2J\\u202e\\u200b\\u00ad\\udb40\\udc41\\u3164\\ufe00x\u2764\ufe0f","n":1,"tab":"a\\tb"}');
    expect(JSON.parse(shown)).toEqual(value);
    expect(jsonForTerminal('{"a":"plain \u00e9 \ud83d\ude00"}')).toBe('{"a":"plain \u00e9 \ud83d\ude00"}');
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

async function guarded(csv: string, chunk = 3, options: { passJson?: boolean } = {}): Promise<string> {
  const parts: Buffer[] = [];
  for (let i = 0; i < csv.length; i += chunk) parts.push(Buffer.from(csv.slice(i, i + chunk)));
  let out = '';
  for await (const piece of Readable.from(parts).pipe(new FormulaGuard(options))) out += piece;
  return out;
}

describe('FormulaGuard', () => {
  it('prefixes cells starting with = + - @ tab CR, quoted or not, across chunk boundaries', async () => {
    expect(await guarded('a,=1+1,b\r\n"@x","q ""=y""",+3\n-4,"\tz","\r=w"\n')).toBe(
      'a,\'=1+1,b\r\n"\'@x","q ""=y""",\'+3\n\'-4,"\'\tz","\'\r=w"\n',
    );
    expect(await guarded('"""=a",,""\n')).toBe('"""=a",,""\n');
  });

  it('guards the first cell after a byte-order mark, which spreadsheets drop', async () => {
    expect(await guarded('\uFEFF=1+1,b\n', 1)).toBe("\uFEFF'=1+1,b\n");
    expect(await guarded('\uFEFF"=1",b\n', 2)).toBe("\uFEFF\"'=1\",b\n");
  });

  it('copies a file in another encoding byte for byte but for the apostrophes (it reads bytes, not UTF-8)', async () => {
    const latin1 = Buffer.from('name,body\nJ\xe9r\xf4me,=1+1\n\xefx,\xef\xbb=2\n', 'latin1');
    const out: Buffer[] = [];
    for await (const piece of Readable.from([latin1.subarray(0, 13), latin1.subarray(13)]).pipe(new FormulaGuard())) out.push(piece);
    expect(Buffer.concat(out).toString('latin1')).toBe("name,body\nJ\xe9r\xf4me,'=1+1\n\xefx,\xef\xbb=2\n");
    // A first cell that only begins like a byte-order mark is a cell like any other.
    const notBom = Buffer.from([0xef, 0x3d, 0x31, 0x0a]);
    const copied: Buffer[] = [];
    for await (const piece of Readable.from([notBom]).pipe(new FormulaGuard())) copied.push(piece);
    expect(Buffer.concat(copied)).toEqual(notBom);
  });

  it('passJson (a download whose type says nothing): JSON passes unchanged, anything else is guarded as CSV', async () => {
    // Guarded as CSV, its `,"=1+1"` and `,-4` would each gain a `'`.
    const json = ' \n[{"body":"x"},"=1+1",-4,\n{"x":"@y"}]';
    expect(await guarded(json, 2)).not.toBe(json);
    expect(await guarded(json, 2, { passJson: true })).toBe(json);
    expect(await guarded('\uFEFF{"a":"-1"}', 1, { passJson: true })).toBe('\uFEFF{"a":"-1"}');
    expect(await guarded('name,body\nJamie,=HYPERLINK("x")\n', 4, { passJson: true })).toBe("name,body\nJamie,'=HYPERLINK(\"x\")\n");
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
    for (const host of ['128.0.0.1', 'example.com', '[::2]', '10.0.0.1', '127.example.com']) expect(isLoopbackHost(host)).toBe(false);
  });
});
