/**
 * The first row and a hash of the details of every distinct MRN of a file,
 * for DuplicateMrns (chunks.ts), kept outside the JS heap.
 *
 * A Map of MRN strings cost about 100 bytes of small heap objects per row,
 * and every entry survived a young-generation collection: across a large
 * file that survival alone made V8 grow its young generation to the maximum
 * (the CLI's peak memory then grew with the file). Here an entry is the
 * MRN's UTF-8 bytes in one growing Buffer, 20 bytes of entry and 8 to 16 of
 * slots in typed arrays (an open-addressing table at most half full), about
 * 5 MB for 100,000 MRNs: nothing per row for the collector to copy.
 */

import { doubled, withRoom } from '../util/off-heap.js';

const EMPTY = -1;
/** Fields of an entry in `entries`: where its bytes are, their hash, and the caller's two numbers. */
const START = 0, LENGTH = 1, HASH = 2, ROW = 3, DETAILS = 4, STRIDE = 5;

export class MrnTable {
  private bytes: Buffer = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;
  private entries: Uint32Array = new Uint32Array(1024 * STRIDE);
  private count = 0;
  /** Entry index per slot, or EMPTY; kept at most half full. */
  private slots = new Int32Array(2048).fill(EMPTY);

  get size(): number {
    return this.count;
  }

  /**
   * The row and details first recorded for `mrn`, or null after recording
   * these (the first time an MRN is seen).
   */
  firstSeen(mrn: string, row: number, details: number): { row: number; details: number } | null {
    // The MRN is written where it would be kept, and only kept if new.
    this.bytes = withRoom(this.bytes, this.used, mrn.length * 3);
    const length = this.bytes.write(mrn, this.used, 'utf8');
    const hash = fnv1aBytes(this.bytes, this.used, this.used + length);
    let slot = hash & (this.slots.length - 1);
    for (let entry = this.slots[slot]!; entry !== EMPTY; entry = this.slots[slot]!) {
      const e = entry * STRIDE;
      if (this.entries[e + HASH] === hash && this.sameBytes(e, length)) {
        return { row: this.entries[e + ROW]!, details: this.entries[e + DETAILS]! };
      }
      slot = (slot + 1) & (this.slots.length - 1);
    }
    if (this.count * STRIDE === this.entries.length) this.entries = doubled(this.entries);
    const e = this.count * STRIDE;
    this.entries[e + START] = this.used;
    this.entries[e + LENGTH] = length;
    this.entries[e + HASH] = hash;
    this.entries[e + ROW] = row;
    this.entries[e + DETAILS] = details;
    this.slots[slot] = this.count++;
    this.used += length;
    if (this.count * 2 > this.slots.length) this.rehash();
    return null;
  }

  private sameBytes(e: number, length: number): boolean {
    const start = this.entries[e + START]!;
    return this.entries[e + LENGTH] === length && this.bytes.compare(this.bytes, this.used, this.used + length, start, start + length) === 0;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = this.slots.length - 1;
    for (let entry = 0; entry < this.count; entry++) {
      let slot = this.entries[entry * STRIDE + HASH]! & mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.slots[slot] = entry;
    }
  }
}

function fnv1aBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    hash ^= bytes[i]!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
