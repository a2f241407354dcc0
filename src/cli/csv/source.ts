/**
 * The bytes side of CSV reading: opening the input, refusing what is not text,
 * decoding, and sniffing the delimiter from the header line before csv-parse
 * is set up.
 */
import { UsageError } from '../errors.js';
import { damagedUtf16, decoderFor, SAVE_AS_UTF8_HINT } from '../util/text-decode.js';
import { unreadable } from '../util/input-file.js';

/** Enough for any real header line; detection only looks at the first line. */
const HEAD_BYTES = 64 * 1024;
const DELIMITERS = [',', ';', '\t'] as const;

export function sourceLabel(source: string | NodeJS.ReadableStream): string {
  return typeof source === 'string' ? source : 'input';
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

/** A CSV that is text, but not UTF-8 (Excel's plain "CSV", Notepad's "ANSI": Windows-1252/Latin-1). */
function notUtf8(label: string): UsageError {
  return new UsageError(`${label} is not UTF-8 text (it was probably saved as Windows-1252/Latin-1, e.g. Excel's plain "CSV")`, [
    'Excel: File > Save As > "CSV UTF-8 (Comma delimited)".',
    SAVE_AS_UTF8_HINT,
  ]);
}

/** Turns a failure to read the input into a message about the file, not a stack trace. */
export function readProblem(error: unknown, label: string): unknown {
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return error;
  if (code === 'ERR_DAMAGED_UTF16') return damagedUtf16(label);
  return unreadable(label, code, (error as Error).message);
}

function binary(label: string): UsageError {
  return new UsageError(`${label}: not a CSV file (it contains binary data)`);
}

function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  let control = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r' && ch !== '\f') control += 1;
  }
  return control > text.length / 100;
}

/** True once `text` holds a line break outside double quotes: the header line is complete. */
function hasCompleteFirstLine(text: string): boolean {
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if ((ch === '\n' || ch === '\r') && !quoted) return true;
  }
  return false;
}

export interface Head {
  /** Raw chunks read so far; they are replayed into the parser. */
  chunks: Buffer[];
  /** The same bytes decoded, without BOM, for delimiter detection. */
  text: string;
}

/**
 * Reads just enough of the input to see the header line and check that it is
 * text. Throws a UsageError for an unreadable, empty, binary or non-UTF-8 input.
 */
export async function peekHead(source: AsyncIterator<Buffer | string>, label: string): Promise<Head> {
  const chunks: Buffer[] = [];
  let size = 0;
  let text = '';
  let decoder: ReturnType<typeof decoderFor> | undefined;
  try {
    while (size < HEAD_BYTES && !hasCompleteFirstLine(text)) {
      const next = await source.next();
      if (next.done) break;
      const chunk = toBuffer(next.value);
      chunks.push(chunk);
      size += chunk.length;
      decoder ??= decoderFor(chunk);
      text += decoder.decode(chunk, { stream: true });
    }
  } catch (error) {
    const undecodable = error instanceof TypeError && 'code' in error && error.code === 'ERR_ENCODING_INVALID_ENCODED_DATA';
    if (!undecodable) throw readProblem(error, label);
    if (decoder && decoder.encoding !== 'utf-8') throw damagedUtf16(label);
    // Most binary formats are not valid UTF-8 either; say which problem it is.
    if (chunks.some((chunk) => chunk.includes(0))) throw binary(label);
    throw notUtf8(label);
  }
  if (looksBinary(text)) throw binary(label);
  if (text.trim() === '') throw new UsageError(`${label}: the file is empty`);
  return { chunks, text };
}

/** Decodes the replayed head and the rest of the input, refusing invalid text anywhere. */
export async function* decodeText(
  head: Buffer[],
  rest: AsyncIterator<Buffer | string>,
  label: string,
): AsyncGenerator<string> {
  const first = head[0];
  if (first === undefined) return;
  const decoder = decoderFor(first);
  const decode = (chunk: Buffer, stream: boolean): string => {
    try {
      return decoder.decode(chunk, { stream });
    } catch {
      throw decoder.encoding === 'utf-8' ? notUtf8(label) : damagedUtf16(label);
    }
  };
  try {
    for (const chunk of head) yield decode(chunk, true);
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield decode(toBuffer(next.value), true);
    yield decode(Buffer.alloc(0), false);
  } catch (error) {
    throw readProblem(error, label);
  } finally {
    await rest.return?.();
  }
}

/**
 * The delimiter used most often, outside quotes, on the header line: `,`, `;`
 * or tab. Ties and a one-column header fall back to the first of those.
 */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best: string = DELIMITERS[0];
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}
