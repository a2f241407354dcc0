/**
 * The one text decoder for everything msgctl reads as text: message bodies
 * (files and stdin), templates, `api --input`, CSVs. Windows tools write text
 * in more than one way, and none of it may reach a patient as mojibake or an
 * invisible U+FEFF:
 *   - UTF-8 with a byte-order mark (Notepad, PowerShell 5.1 `-Encoding UTF8`),
 *   - UTF-16LE with a BOM (PowerShell 5.1 `>` and `Out-File`), UTF-16BE with a BOM,
 *   - UTF-8 without a BOM (everything else).
 * Anything that is not valid in its encoding (cp1252 "Café", a binary file) is
 * refused with a hint, never replaced with U+FFFD. The BOM is never part of the text.
 */
import { Transform } from 'node:stream';
import { TextDecoder } from 'node:util';
import { UsageError } from '../errors.js';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

/** Byte-order marks decide the encoding; everything else must be UTF-8. */
export function encodingOf(head: Uint8Array): TextEncodingName {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** A strict decoder for input starting with `head`; it drops the BOM itself. */
export function decoderFor(head: Uint8Array): TextDecoder {
  return new TextDecoder(encodingOf(head), { fatal: true });
}

export const SAVE_AS_UTF8_HINT =
  'Save the file as UTF-8 (Notepad: File > Save As > Encoding: UTF-8; PowerShell: Set-Content -Encoding utf8), or convert it: iconv -f WINDOWS-1252 -t UTF-8.';

const RESAVE_HINT = 'Open it in the program that made it and save it again (Notepad: File > Save As > Encoding: UTF-8), or make it again.';

/**
 * Input that starts with a UTF-16 byte-order mark and still does not decode: a byte
 * missing (an odd length: cut short, or edited as bytes) or half of a surrogate pair.
 * Not "not UTF-8", which would send the user to re-encode a file that is damaged.
 */
export function damagedUtf16(label: string, byteLength?: number): UsageError {
  const why =
    byteLength !== undefined && byteLength % 2 === 1
      ? `it starts with a UTF-16 byte-order mark, but its length (${byteLength.toLocaleString('en-US')} bytes) is odd, and UTF-16 text is whole pairs of bytes: the file was cut short or changed`
      : 'it starts with a UTF-16 byte-order mark, but does not decode as UTF-16 (a byte is missing, or half of a character pair): the file was cut short or changed';
  return new UsageError(`${label} is damaged UTF-16 text: ${why}.`, [RESAVE_HINT]);
}

/** Thrown by canonicalTextStream for UTF-16 input that does not decode; the CSV reader names the file. */
export class DamagedUtf16Error extends Error {
  readonly code = 'ERR_DAMAGED_UTF16';
  constructor() {
    super('damaged UTF-16 text');
    this.name = 'DamagedUtf16Error';
  }
}

/** The text that `bytes` hold, or a UsageError naming `label` (e.g. "--body-file notice.txt"). */
export function decodeText(bytes: Uint8Array, label: string): string {
  let text: string;
  try {
    text = decoderFor(bytes).decode(bytes);
  } catch {
    if (encodingOf(bytes) !== 'utf-8') throw damagedUtf16(label, bytes.length);
    throw new UsageError(`${label} is not UTF-8 text (it holds bytes that are not valid UTF-8).`, [SAVE_AS_UTF8_HINT]);
  }
  // UTF-16 without a BOM decodes as "valid" UTF-8 full of NULs; so does a binary file.
  if (text.includes('\u0000')) {
    throw new UsageError(`${label} is not text: it holds NUL bytes (binary data, or UTF-16 without a byte-order mark).`, [SAVE_AS_UTF8_HINT]);
  }
  return text;
}

/** CRLF (Windows) and lone CR (old Mac) line ends become LF: what a phone shows as one line break. */
export function toLf(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * Bytes in, the same text out as UTF-8 without a BOM and with LF line ends:
 * what a file's identity is computed from, so saving it again in Notepad (BOM,
 * CRLF) or as UTF-16 does not make it a new batch. UTF-8 bytes that do not
 * decode pass through unchanged: the CSV reader behind this reports them (with
 * Excel's hints). UTF-16 that does not decode is an error (DamagedUtf16Error).
 */
export function canonicalTextStream(): Transform {
  let decoder: TextDecoder | undefined;
  let passThrough = false;
  let pendingCr = false;
  const lf = (text: string, final: boolean): string => {
    let out = (pendingCr ? '\r' : '') + text;
    pendingCr = !final && out.endsWith('\r');
    if (pendingCr) out = out.slice(0, -1);
    return toLf(out);
  };
  return new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      if (passThrough) return done(null, bytes);
      decoder ??= decoderFor(bytes);
      try {
        done(null, Buffer.from(lf(decoder.decode(bytes, { stream: true }), false), 'utf8'));
      } catch {
        if (decoder.encoding !== 'utf-8') return done(new DamagedUtf16Error());
        passThrough = true;
        done(null, bytes);
      }
    },
    flush(done) {
      if (passThrough || !decoder) return done();
      try {
        const rest = lf(decoder.decode(new Uint8Array(0), { stream: false }), true);
        done(null, rest ? Buffer.from(rest, 'utf8') : undefined);
      } catch {
        // An odd byte left over: UTF-16 cut short, or UTF-8 ending in half a character.
        done(decoder.encoding !== 'utf-8' ? new DamagedUtf16Error() : undefined);
      }
    },
  });
}
