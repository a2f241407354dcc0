/**
 * Splits a list response body (`{"data": [...], "pagination": {...}}`) into
 * the bytes of each record and the parsed rest, without parsing the records.
 * (Any array-of-objects member can be split the same way: a finished
 * import's `results`, imports/results.ts.)
 *
 * `--json` prints each record as the service sent it, one per line. Parsing a
 * page into objects only to serialise them again was most of the CLI's work
 * when streaming a large range, so the JSON Lines path copies bytes instead:
 * the records come out exactly as received (unknown fields and number
 * formats included). Anything that is not a well-formed object body makes
 * `splitListBody` return null, and the caller falls back to JSON.parse, which
 * then reports the problem properly.
 */
import { doubled } from '../util/off-heap.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;

export interface SplitBody {
  /** Each element of `data`, as [start, end) byte offsets into the body. */
  records: [number, number][];
  /** Every other top-level member, parsed (pagination, …). */
  rest: Record<string, unknown>;
}

function isSpace(b: number): boolean {
  return b === SPACE || b === NEWLINE || b === RETURN || b === 0x09;
}

function skipSpace(buf: Uint8Array, i: number): number {
  while (i < buf.length && isSpace(buf[i]!)) i++;
  return i;
}

/**
 * Index just past the string starting at `i` (a quote), or -1. A plain byte
 * loop: most strings in a record are a few bytes long, where a native
 * `indexOf` per quote cost more in the call than in the search (splitting
 * was about a quarter of the CLI's own CPU in a large `--json` listing).
 */
function skipString(buf: Buffer, i: number): number {
  const n = buf.length;
  for (let k = i + 1; k < n; k++) {
    const b = buf[k]!;
    if (b === QUOTE) return k + 1;
    if (b === BACKSLASH) k++; // the escaped byte cannot end the string
  }
  return -1;
}

/** Index just past the JSON value starting at `i`, or -1. */
function skipValue(buf: Buffer, i: number): number {
  const first = buf[i];
  if (first === QUOTE) return skipString(buf, i);
  const n = buf.length;
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let k = i; k < n; k++) {
      const b = buf[k]!;
      if (b === QUOTE) {
        k = skipString(buf, k) - 1;
        if (k < 0) return -1;
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        if (--depth === 0) return k + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let k = i;
  while (k < n) {
    const b = buf[k]!;
    if (b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET || isSpace(b)) break;
    k++;
  }
  return k > i ? k : -1;
}

export function splitListBody(buf: Buffer): SplitBody | null {
  const records: [number, number][] = [];
  const rest = splitMember(buf, 'data', (start, end) => records.push([start, end]));
  return rest ? { records, rest } : null;
}

/** [start, end) byte offsets of many elements, in one typed array (outside the JS heap once large). */
export class Offsets {
  private pairs = new Uint32Array(2048);
  length = 0;

  push(start: number, end: number): void {
    if (this.length * 2 === this.pairs.length) this.pairs = doubled(this.pairs);
    this.pairs[this.length * 2] = start;
    this.pairs[this.length * 2 + 1] = end;
    this.length += 1;
  }

  start(i: number): number {
    return this.pairs[i * 2]!;
  }

  end(i: number): number {
    return this.pairs[i * 2 + 1]!;
  }
}

/**
 * Like splitListBody for any array-of-objects member (a finished import's
 * `results`, imports/results.ts), with the offsets in one typed array: no
 * small object per element.
 */
export function splitArrayMember(buf: Buffer, member: string): { elements: Offsets; rest: Record<string, unknown> } | null {
  const elements = new Offsets();
  const rest = splitMember(buf, member, (start, end) => elements.push(start, end));
  return rest ? { elements, rest } : null;
}

/** Every top-level member but `member` parsed, `member`'s elements handed to `onElement`; null when not such a body. */
function splitMember(buf: Buffer, member: string, onElement: (start: number, end: number) => void): Record<string, unknown> | null {
  try {
    return split(buf, member, onElement);
  } catch {
    return null;
  }
}

function split(buf: Buffer, member: string, onElement: (start: number, end: number) => void): Record<string, unknown> | null {
  let i = skipSpace(buf, 0);
  if (buf[i] !== OPEN_BRACE) return null;
  i = skipSpace(buf, i + 1);
  let found = false;
  const rest: Record<string, unknown> = {};
  if (buf[i] === CLOSE_BRACE) return null;
  for (;;) {
    if (buf[i] !== QUOTE) return null;
    const keyEnd = skipString(buf, i);
    if (keyEnd < 0) return null;
    const key = JSON.parse(buf.toString('utf8', i, keyEnd)) as string;
    i = skipSpace(buf, keyEnd);
    if (buf[i] !== COLON) return null;
    i = skipSpace(buf, i + 1);
    if (key === member && buf[i] === OPEN_BRACKET) {
      found = true;
      i = skipSpace(buf, i + 1);
      if (buf[i] === CLOSE_BRACKET) i++;
      else {
        for (;;) {
          const end = skipValue(buf, i);
          if (end < 0 || buf[i] !== OPEN_BRACE) return null;
          onElement(i, end);
          i = skipSpace(buf, end);
          if (buf[i] === COMMA) i = skipSpace(buf, i + 1);
          else if (buf[i] === CLOSE_BRACKET) {
            i++;
            break;
          } else return null;
        }
      }
    } else {
      const end = skipValue(buf, i);
      if (end < 0) return null;
      rest[key] = JSON.parse(buf.toString('utf8', i, end));
      i = end;
    }
    i = skipSpace(buf, i);
    if (buf[i] === COMMA) i = skipSpace(buf, i + 1);
    else if (buf[i] === CLOSE_BRACE) break;
    else return null;
  }
  if (skipSpace(buf, i + 1) !== buf.length || !found) return null;
  return rest;
}

/**
 * The records as JSON Lines, made in place: the separator after each record
 * (a comma, plus any whitespace) becomes a newline, so the lines are one
 * slice of `buf` with nothing allocated or copied. Outside strings, a JSON
 * text may hold line breaks as whitespace (inside strings they must be
 * escaped), so any raw CR or LF byte within a record becomes a space: one
 * record, one line. `buf` is changed; `records` must come from splitListBody.
 */
export function jsonLinesInPlace(buf: Buffer, records: [number, number][]): Buffer {
  const last = records[records.length - 1];
  if (!last) return Buffer.alloc(0);
  for (let r = 0; r < records.length; r++) {
    const [start, end] = records[r]!;
    const line = buf.subarray(start, end);
    if (line.indexOf(NEWLINE) >= 0 || line.indexOf(RETURN) >= 0) replaceBreaks(line);
    // Every record is followed by at least one byte (a comma or the closing bracket).
    const next = records[r + 1]?.[0] ?? end + 1;
    if (next - end > 1) buf.fill(SPACE, end + 1, next);
    buf[end] = NEWLINE;
  }
  return buf.subarray(records[0]![0], last[1] + 1);
}

function replaceBreaks(line: Buffer): void {
  for (let k = 0; k < line.length; k++) if (line[k] === NEWLINE || line[k] === RETURN) line[k] = SPACE;
}
