/**
 * Growing memory outside the JS heap, for what would otherwise survive
 * young-generation collections row after row and make V8 grow its heap
 * (imports/body.ts, imports/mrn-table.ts, api/json-page.ts): when full it is
 * copied into a block twice as large, so a run allocates a few times, not per row.
 */

/** `buffer` itself when `room` more bytes fit after its first `used`; else a copy twice as large (or as large as needed). */
export function withRoom(buffer: Buffer, used: number, room: number): Buffer {
  if (used + room <= buffer.length) return buffer;
  const bigger = Buffer.allocUnsafeSlow(Math.max(buffer.length * 2, used + room));
  buffer.copy(bigger, 0, 0, used);
  return bigger;
}

/** A copy of `array` twice as long: its elements, then zeros. */
export function doubled(array: Uint32Array): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
