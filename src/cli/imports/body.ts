/**
 * The body of one POST /patient-imports, written as its rows are checked.
 *
 * A chunk holds up to 5,000 rows. Kept as objects until the upload, they
 * lived long enough to survive young-generation collections, and what
 * survives is what makes V8 grow its heap: the CLI's peak memory grew with
 * the file. Here each row is serialized the moment it is valid, into
 * Buffers (outside the JS heap), and hashed for its idempotency key on the
 * way, so a row object dies young and a chunk costs its bytes only.
 *
 * The bytes are exactly `JSON.stringify({ rows })`, and the digest is
 * keys.ts's `rowsHash` of the same rows: the keys of earlier runs still match.
 */
import { rowsHash } from './keys.js';
import type { ImportRowBody } from './chunks.js';

/** Buffers are filled in blocks of this size: one allocation per ~400 rows. */
const BLOCK_BYTES = 64 * 1024;
/** A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, 2 units, takes 4). */
const MAX_BYTES_PER_UNIT = 3;

export class ImportBody {
  /** Rows written so far. */
  length = 0;
  private readonly blocks: Buffer[] = [];
  private block = Buffer.allocUnsafeSlow(BLOCK_BYTES);
  private used = 0;
  private readonly hash = rowsHash();

  constructor() {
    this.write('{"rows":[');
  }

  /** Writes one row (named like Array's, so a chunk can collect rows in either). */
  push(row: ImportRowBody): void {
    const json = JSON.stringify(row);
    this.hash.add(json);
    if (this.length > 0) this.write(',');
    this.write(json);
    this.length += 1;
  }

  /** The whole body and the digest of its rows; the builder is spent after this. */
  finish(): { bytes: Buffer; rowsDigest: string } {
    this.write(']}');
    this.blocks.push(this.block.subarray(0, this.used));
    const bytes = this.blocks.length === 1 ? this.blocks[0]! : Buffer.concat(this.blocks);
    this.blocks.length = 0;
    return { bytes, rowsDigest: this.hash.digest() };
  }

  private write(text: string): void {
    const room = text.length * MAX_BYTES_PER_UNIT;
    if (this.used + room > this.block.length) {
      this.blocks.push(this.block.subarray(0, this.used));
      this.block = Buffer.allocUnsafeSlow(Math.max(BLOCK_BYTES, room));
      this.used = 0;
    }
    this.used += this.block.write(text, this.used, 'utf8');
  }
}
