/**
 * terminalSafe for a byte stream: a file (an export) printed straight to a
 * terminal shows its control characters as visible escapes, like every other
 * text from data. Multi-byte characters split across chunks are reassembled
 * first; a lone CR at the very end of a chunk is only ever escaped, never
 * mistaken for half of a CRLF, because CRLF is kept only within one chunk.
 */
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { terminalSafe } from './terminal-text.js';

export class TerminalSafeStream extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  /** A high surrogate at the end of a chunk waits for its pair in the next. */
  private carry = '';

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null, data?: string) => void): void {
    let text = this.carry + this.decoder.write(chunk);
    this.carry = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    done(null, terminalSafe(text, { keepLines: true }));
  }

  override _flush(done: (err?: Error | null, data?: string) => void): void {
    done(null, terminalSafe(this.carry + this.decoder.end(), { keepLines: true }));
  }
}
