/**
 * The first row and a hash of the details of every distinct MRN of a file,
 * for DuplicateMrns (chunks.ts), kept outside the JS heap.
 *
 * A Map of MRN strings cost about 100 bytes of small heap objects per row,
 * and every entry survived a young-generation collection: across a large
 * file that survival alone made V8 grow its young generation to the maximum
 * (the CLI's peak memory then grew with the file). Here an entry is the
 * MRN's UTF-8 bytes in one growing Buffer, 16 bytes in fixed-size pages of
 * entries (added, never copied: a growing array would briefly hold its old
 * and new copy, and that moment sets the peak) and 8 to 16 bytes of slots in
 * an open-addressing table at most half full: about 3.5 MB for 100,000 MRNs,
 * nothing per row for the collector to copy.
 */

import { withRoom } from '../util/off-heap.js';

const EMPTY = -1;
/** Fields of an entry: where its bytes are, and the caller's two numbers. */
const START = 0, LENGTH = 1, ROW = 2, DETAILS = 3, STRIDE = 4;
/** Entries per page, 4,096 (64 KB of Uint32Array): entry i is at page i >>> PAGE_SHIFT. */
const PAGE_SHIFT = 12, PAGE_ENTRIES = 1 << PAGE_SHIFT;

export class MrnTable {
  private bytes: Buffer = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;
  private readonly pages: Uint32Array[] = [];
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
    const mask = this.slots.length - 1;
    let slot = fnv1aBytes(this.bytes, this.used, this.used + length) & mask;
    for (let entry = this.slots[slot]!; entry !== EMPTY; entry = this.slots[slot]!) {
      const page = this.pages[entry >>> PAGE_SHIFT]!;
      const e = (entry & (PAGE_ENTRIES - 1)) * STRIDE;
      if (page[e + LENGTH] === length && this.sameBytes(page[e + START]!, length)) {
        return { row: page[e + ROW]!, details: page[e + DETAILS]! };
      }
      slot = (slot + 1) & mask;
    }
    const index = this.count % PAGE_ENTRIES;
    if (index === 0) this.pages.push(new Uint32Array(PAGE_ENTRIES * STRIDE));
    const page = this.pages[this.pages.length - 1]!;
    const e = index * STRIDE;
    page[e + START] = this.used;
    page[e + LENGTH] = length;
    page[e + ROW] = row;
    page[e + DETAILS] = details;
    this.slots[slot] = this.count++;
    this.used += length;
    if (this.count * 2 > this.slots.length) this.rehash();
    return null;
  }

  /** Whether the bytes just written after `used` equal those kept at `start`. */
  private sameBytes(start: number, length: number): boolean {
    return this.bytes.compare(this.bytes, this.used, this.used + length, start, start + length) === 0;
  }

  /** Twice the slots; each entry's hash is read again from its bytes (a rehash is rare, a stored hash would be 4 bytes per entry). */
  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = this.slots.length - 1;
    for (let entry = 0; entry < this.count; entry++) {
      const page = this.pages[entry >>> PAGE_SHIFT]!;
      const e = (entry & (PAGE_ENTRIES - 1)) * STRIDE;
      const start = page[e + START]!;
      let slot = fnv1aBytes(this.bytes, start, start + page[e + LENGTH]!) & mask;
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
