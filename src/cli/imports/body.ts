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
import { withRoom } from '../util/off-heap.js';

/** A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, 2 units, takes 4). */
const MAX_BYTES_PER_UNIT = 3;

/**
 * The memory the bodies of one run are written into, one after the other:
 * a Buffer that grows to the largest body and is then reused, so a chunk
 * allocates nothing outside the heap either. A finished body's bytes are
 * valid until the next body on the same BodyBytes starts writing (uploads
 * are sequential: the next chunk is read after the previous one was sent).
 */
export class BodyBytes {
  buffer: Buffer = Buffer.allocUnsafeSlow(256 * 1024);
}

export class ImportBody {
  /** Rows written so far. */
  length = 0;
  private used = 0;
  private readonly hash = rowsHash();

  constructor(private readonly memory: BodyBytes = new BodyBytes()) {
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

  /** The whole body (see BodyBytes for how long it stays valid) and the digest of its rows. */
  finish(): { bytes: Buffer; rowsDigest: string } {
    this.write(']}');
    return { bytes: this.memory.buffer.subarray(0, this.used), rowsDigest: this.hash.digest() };
  }

  private write(text: string): void {
    const buffer = (this.memory.buffer = withRoom(this.memory.buffer, this.used, text.length * MAX_BYTES_PER_UNIT));
    this.used += buffer.write(text, this.used, 'utf8');
  }
}
