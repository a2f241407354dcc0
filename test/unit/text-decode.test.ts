import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import { canonicalTextStream, decodeText, encodingOf, toLf } from '../../src/cli/util/text-decode.js';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.from(Buffer.from(text, 'utf16le')).swap16();

describe('decodeText', () => {
  it.each([
    ['UTF-8', Buffer.from('Café ✓')],
    ['UTF-8 with BOM', Buffer.from('\uFEFFCafé ✓')],
    ['UTF-16LE with BOM', utf16le('Café ✓')],
    ['UTF-16BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('Café ✓')])],
  ])('%s', (_name, bytes) => {
    expect(decodeText(bytes, 'x')).toBe('Café ✓');
  });

  it('refuses Windows-1252 and binary with a save-as-UTF-8 hint, never U+FFFD', () => {
    const cp1252 = Buffer.from([0x43, 0x61, 0x66, 0xe9]);
    expect(() => decodeText(cp1252, '--body-file a.txt')).toThrow(UsageError);
    expect(() => decodeText(cp1252, '--body-file a.txt')).toThrow(/--body-file a.txt is not UTF-8 text/);
    expect(() => decodeText(Buffer.from('hi', 'utf16le'), 'stdin')).toThrow(/NUL bytes/);
  });

  it('names encodings by BOM only', () => {
    expect(encodingOf(Buffer.from([0xff, 0xfe, 0x41, 0]))).toBe('utf-16le');
    expect(encodingOf(Buffer.from([0xfe, 0xff, 0, 0x41]))).toBe('utf-16be');
    expect(encodingOf(Buffer.from('abc'))).toBe('utf-8');
  });

  it('toLf turns CRLF and lone CR into LF', () => {
    expect(toLf('a\r\nb\rc\n')).toBe('a\nb\nc\n');
  });
});

describe('canonicalTextStream', () => {
  async function canonical(chunks: Buffer[]): Promise<string> {
    const out: Buffer[] = [];
    for await (const chunk of Readable.from(chunks).pipe(canonicalTextStream())) out.push(chunk as Buffer);
    return Buffer.concat(out).toString('utf8');
  }

  it('gives the same text for a BOM+CRLF file as for the LF one, whatever the chunking', async () => {
    const lf = 'name,phone\nAda,555\n';
    const crlf = Buffer.from('\uFEFFname,phone\r\nAda,555\r\n');
    // Split inside the BOM, between CR and LF, and inside a multi-byte character.
    for (let cut = 1; cut < crlf.length; cut++) {
      expect(await canonical([crlf.subarray(0, cut), crlf.subarray(cut)])).toBe(lf);
    }
    expect(await canonical([utf16le('name,phone\r\nAda,555\r\n')])).toBe(lf);
  });

  it('passes undecodable bytes through for the CSV reader to report', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]);
    const out: Buffer[] = [];
    for await (const chunk of Readable.from([png]).pipe(canonicalTextStream())) out.push(chunk as Buffer);
    expect(Buffer.concat(out)).toEqual(png);
  });
});
