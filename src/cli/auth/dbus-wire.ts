/**
 * The little of the D-Bus wire format (the D-Bus Specification, "Message Protocol")
 * that reading one secret needs: method calls with string, object-path, variant
 * and string-dict arguments out, and any reply back. secret-service-read.ts uses it.
 *
 * Hand-written because the job is small and start-up counts: the JavaScript
 * D-Bus libraries on npm load XML parsers and stream machinery for
 * introspection this never needs, and the native keychain module costs more
 * than the whole command (keychain-store.ts).
 */

export const MessageType = { MethodCall: 1, MethodReturn: 2, Error: 3, Signal: 4 } as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

/** Header field codes. */
const Field = { Path: 1, Interface: 2, Member: 3, ErrorName: 4, ReplySerial: 5, Destination: 6, Signature: 8 } as const;
type Field = (typeof Field)[keyof typeof Field];

/** An argument of a call: each knows its own signature. */
export type Argument =
  | { type: 's'; value: string }
  | { type: 'o'; value: string }
  | { type: 'v'; value: Argument }
  | { type: 'a{ss}'; value: Record<string, string> };

export interface MethodCall {
  serial: number;
  destination: string;
  path: string;
  interface: string;
  member: string;
  args?: Argument[];
}

export interface Message {
  type: MessageType;
  replySerial?: number;
  errorName?: string;
  /** The body, one value per complete type of its signature. */
  body: unknown[];
}

/** Little-endian writer that keeps alignment relative to the start of the message. */
class Writer {
  private buffer = Buffer.alloc(256);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const bigger = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }

  align(n: number): void {
    const padded = Math.ceil(this.length / n) * n;
    this.room(padded - this.length);
    this.buffer.fill(0, this.length, padded);
    this.length = padded;
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  uint32(value: number): void {
    this.align(4);
    this.room(4);
    this.buffer.writeUInt32LE(value, this.length);
    this.length += 4;
  }

  setUint32(at: number, value: number): void {
    this.buffer.writeUInt32LE(value, at);
  }

  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.uint32(bytes.length);
    this.raw(bytes);
    this.byte(0);
  }

  signature(value: string): void {
    this.byte(value.length);
    this.raw(Buffer.from(value, 'ascii'));
    this.byte(0);
  }

  raw(bytes: Buffer): void {
    this.room(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }

  /** An array: its byte length, then the elements, aligned to `elementAlign`. */
  array(elementAlign: number, writeElements: () => void): void {
    this.uint32(0);
    const lengthAt = this.length - 4;
    this.align(elementAlign);
    const start = this.length;
    writeElements();
    this.setUint32(lengthAt, this.length - start);
  }

  argument(arg: Argument): void {
    switch (arg.type) {
      case 's':
      case 'o':
        return this.string(arg.value);
      case 'v':
        this.signature(arg.value.type);
        return this.argument(arg.value);
      case 'a{ss}':
        return this.array(8, () => {
          for (const [key, value] of Object.entries(arg.value)) {
            this.align(8);
            this.string(key);
            this.string(value);
          }
        });
    }
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** One method call, ready to write to the bus. */
export function encodeCall(call: MethodCall): Buffer {
  const w = new Writer();
  const args = call.args ?? [];
  w.byte(0x6c); // 'l': little-endian
  w.byte(MessageType.MethodCall);
  w.byte(0); // flags: a reply is expected
  w.byte(1); // protocol version
  w.uint32(0); // body length, set below
  w.uint32(call.serial);
  const fields: [Field, Argument | { type: 'g'; value: string }][] = [
    [Field.Path, { type: 'o', value: call.path }],
    [Field.Interface, { type: 's', value: call.interface }],
    [Field.Member, { type: 's', value: call.member }],
    [Field.Destination, { type: 's', value: call.destination }],
  ];
  if (args.length > 0) fields.push([Field.Signature, { type: 'g', value: args.map((a) => a.type).join('') }]);
  w.array(8, () => {
    for (const [code, value] of fields) {
      w.align(8);
      w.byte(code);
      w.signature(value.type);
      if (value.type === 'g') w.signature(value.value);
      else w.argument(value);
    }
  });
  w.align(8);
  const bodyStart = w.length;
  for (const arg of args) w.argument(arg);
  w.setUint32(4, w.length - bodyStart);
  return Buffer.from(w.bytes());
}

/** The size of the first message in `buffer` once its fixed header is in, else undefined. */
export function messageLength(buffer: Buffer): number | undefined {
  if (buffer.length < 16) return undefined;
  const little = buffer[0] === 0x6c;
  const body = little ? buffer.readUInt32LE(4) : buffer.readUInt32BE(4);
  const fields = little ? buffer.readUInt32LE(12) : buffer.readUInt32BE(12);
  return Math.ceil((16 + fields) / 8) * 8 + body;
}

/** Reads values of any signature; alignment is relative to the start of the message. */
class Reader {
  pos: number;
  private readonly little: boolean;

  constructor(
    private readonly buffer: Buffer,
    at: number,
  ) {
    this.pos = at;
    this.little = buffer[0] === 0x6c;
  }

  private align(n: number): void {
    this.pos = Math.ceil(this.pos / n) * n;
  }

  private need(n: number): void {
    if (this.pos + n > this.buffer.length) throw new Error('malformed D-Bus message: it ends early');
  }

  private uint32(): number {
    this.align(4);
    this.need(4);
    const value = this.little ? this.buffer.readUInt32LE(this.pos) : this.buffer.readUInt32BE(this.pos);
    this.pos += 4;
    return value;
  }

  private text(length: number): string {
    this.need(length + 1);
    const value = this.buffer.toString('utf8', this.pos, this.pos + length);
    this.pos += length + 1; // and its NUL
    return value;
  }

  /** Every complete type of `signature`, in order. */
  values(signature: string): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < signature.length; ) {
      const end = completeTypeEnd(signature, i);
      out.push(this.value(signature.slice(i, end)));
      i = end;
    }
    return out;
  }

  value(type: string): unknown {
    const code = type[0];
    switch (code) {
      case 'y':
        this.need(1);
        return this.buffer[this.pos++];
      case 'b':
        return this.uint32() !== 0;
      case 'n':
      case 'q': {
        this.align(2);
        this.need(2);
        const value = code === 'n' ? (this.little ? this.buffer.readInt16LE(this.pos) : this.buffer.readInt16BE(this.pos)) : this.little ? this.buffer.readUInt16LE(this.pos) : this.buffer.readUInt16BE(this.pos);
        this.pos += 2;
        return value;
      }
      case 'i':
        return this.uint32() | 0;
      case 'u':
      case 'h':
        return this.uint32();
      case 'x':
      case 't':
      case 'd': {
        this.align(8);
        this.need(8);
        const b = this.buffer;
        const value = code === 'd' ? (this.little ? b.readDoubleLE(this.pos) : b.readDoubleBE(this.pos)) : code === 'x' ? (this.little ? b.readBigInt64LE(this.pos) : b.readBigInt64BE(this.pos)) : this.little ? b.readBigUInt64LE(this.pos) : b.readBigUInt64BE(this.pos);
        this.pos += 8;
        return value;
      }
      case 's':
      case 'o':
        return this.text(this.uint32());
      case 'g': {
        this.need(1);
        return this.text(this.buffer[this.pos++]!);
      }
      case 'v': {
        this.need(1);
        const inner = this.text(this.buffer[this.pos++]!);
        return this.value(inner);
      }
      case 'a': {
        const length = this.uint32();
        const element = type.slice(1);
        this.align(alignment(element));
        const end = this.pos + length;
        this.need(length);
        // Bytes (a secret) as one Buffer.
        if (element === 'y') {
          const bytes = Buffer.from(this.buffer.subarray(this.pos, end));
          this.pos = end;
          return bytes;
        }
        const items: unknown[] = [];
        while (this.pos < end) items.push(this.value(element));
        return items;
      }
      case '(':
      case '{': {
        this.align(8);
        return this.values(type.slice(1, -1));
      }
      default:
        throw new Error(`malformed D-Bus message: unknown type '${type}'`);
    }
  }
}

function alignment(type: string): number {
  switch (type[0]) {
    case 'y':
    case 'g':
    case 'v':
      return 1;
    case 'n':
    case 'q':
      return 2;
    case 'x':
    case 't':
    case 'd':
    case '(':
    case '{':
      return 8;
    default:
      return 4;
  }
}

/** Where the complete type that starts at `i` in `signature` ends. */
function completeTypeEnd(signature: string, i: number): number {
  const code = signature[i];
  if (code === 'a') return completeTypeEnd(signature, i + 1);
  if (code !== '(' && code !== '{') {
    if (code === undefined) throw new Error('malformed D-Bus signature');
    return i + 1;
  }
  const close = code === '(' ? ')' : '}';
  let j = i + 1;
  while (signature[j] !== close) {
    if (j >= signature.length) throw new Error('malformed D-Bus signature');
    j = completeTypeEnd(signature, j);
  }
  return j + 1;
}

/** A whole message (as long as messageLength said): its type, the reply it answers, its body. */
export function decodeMessage(buffer: Buffer): Message {
  const type = buffer[1] as MessageType;
  const header = new Reader(buffer, 12);
  const fields = header.value('a(yv)') as [number, unknown][];
  const field = (code: Field) => fields.find(([c]) => c === code)?.[1];
  const bodyStart = Math.ceil(header.pos / 8) * 8;
  const signature = (field(Field.Signature) as string | undefined) ?? '';
  const body = new Reader(buffer, bodyStart).values(signature);
  return { type, replySerial: field(Field.ReplySerial) as number | undefined, errorName: field(Field.ErrorName) as string | undefined, body };
}
