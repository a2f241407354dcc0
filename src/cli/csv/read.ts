/**
 * Streaming CSV reading for `imports create` and `send --csv`.
 *
 * Memory stays bounded whatever the file size: records flow from the file
 * through csv-parse with back-pressure, and one record may not exceed
 * MAX_RECORD_CHARS (so an unclosed quote cannot swallow the whole file).
 *
 * Row numbers. Operators open these files in a spreadsheet, so every message
 * names a record by its spreadsheet row (`CsvRow.row`): the header is row 1,
 * and every line of the file is a row, blank ones included, except that line
 * breaks inside a quoted value stay inside one cell. `line` is the physical
 * line the record starts on (what a text editor shows); the two differ only
 * after a quoted value containing a line break. `rowNumber` counts data
 * records (1 = first record after the header, blank lines skipped), which is
 * what the service's `rows` count means.
 */
import { Readable, pipeline } from 'node:stream';
import { parse, CsvError, type Parser } from 'csv-parse';
import { UsageError } from '../errors.js';
import { openRegularFile } from '../util/input-file.js';
import { canonicalTextStream } from '../util/text-decode.js';
import { decodeText, detectDelimiter, peekHead, readProblem, sourceLabel, type Head } from './source.js';

export interface CsvRow {
  /** 1 = first data record after the header; blank records are not counted. */
  rowNumber: number;
  /** Spreadsheet row (header = 1, blank lines count): the number used in messages. */
  row: number;
  /** Physical line of the file where the record starts. */
  line: number;
  /** Values by header name, trimmed; missing trailing values are ''. */
  record: Record<string, string>;
  /** Set when the record has a different number of fields than the header. */
  problem?: string;
}

export interface CsvReadOptions {
  /** Field delimiter; by default detected from the header line among `,` `;` and tab. */
  delimiter?: string;
  /** Name of the input in messages; defaults to the path, or "input" for a stream. */
  label?: string;
}

export interface CsvFile {
  /** Header names as written (trimmed); unnamed columns become "(column N)". */
  headers: string[];
  delimiter: string;
  /** The data rows; iterate once. */
  rows: AsyncIterable<CsvRow>;
  /** Stops reading and releases the file; needed only if `rows` is not iterated to the end. */
  close(): void;
}

const MAX_RECORD_CHARS = 1_000_000;

/**
 * Bytes read from a CSV file at a time. csv-parse turns a whole read into
 * records before back-pressure applies, so one read's records (~700 at the
 * default 64 KB) wait while the rows before them are checked and sent; that
 * much data surviving every young-generation collection made V8 grow its heap
 * as the file went on (bench/import.mjs). 4 KB keeps the backlog to a few
 * dozen records, at no measurable cost in speed (the per-row work dominates).
 */
export const CSV_READ_BYTES = 4 * 1024;

/** Line breaks as a reader sees them. */
const LINE_BREAK = /\r\n|\r|\n/g;
/** csv-parse counts every CR and LF inside a quoted value as a line of its own. */
const PARSER_BREAK = /[\r\n]/g;

function countMatches(values: string[], pattern: RegExp): number {
  let count = 0;
  for (const value of values) count += value.match(pattern)?.length ?? 0;
  return count;
}

function normaliseDelimiter(delimiter: string): string {
  const named: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';' };
  const result = named[delimiter.toLowerCase()] ?? delimiter;
  if (result.length !== 1 || result === '"' || result === '\r' || result === '\n') {
    throw new UsageError(`invalid CSV delimiter ${JSON.stringify(delimiter)}: use one character, e.g. "," ";" or "tab"`);
  }
  return result;
}

function headerNames(fields: string[], label: string): string[] {
  if (fields.every((field) => field === '')) {
    throw new UsageError(`${label}: the first line is not a header row`, [
      'The first line must name the columns, e.g. "First Name,Last Name,Phone".',
    ]);
  }
  const names = fields.map((field, index) => (field === '' ? `(column ${index + 1})` : field));
  // One pass with a set: a header of 100,000 columns is judged at once (indexOf per column took
  // minutes of CPU for a hostile file).
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) repeated.add(name);
    else seen.add(name);
  }
  const duplicates = [...repeated];
  if (duplicates.length > 0) {
    const shown = duplicates.slice(0, 5).map((d) => `"${d}"`).join(', ');
    const more = duplicates.length > 5 ? ` and ${duplicates.length - 5} more` : '';
    throw new UsageError(`${label}: the header names a column more than once: ${shown}${more}`);
  }
  return names;
}

/** Tracks how csv-parse's line counter relates to real lines and spreadsheet rows. */
class Position {
  /** Extra lines csv-parse counted for CRLF inside quoted values so far. */
  private overcount = 0;
  /** Line breaks inside quoted values so far: lines that are not spreadsheet rows. */
  private innerBreaks = 0;
  /** Last real line consumed by a record. */
  lastLine = 0;

  advance(fields: string[], parserLine: number): { line: number; row: number } {
    const parserBreaks = countMatches(fields, PARSER_BREAK);
    const breaks = countMatches(fields, LINE_BREAK);
    const line = parserLine - parserBreaks - this.overcount;
    const row = line - this.innerBreaks;
    this.overcount += parserBreaks - breaks;
    this.innerBreaks += breaks;
    this.lastLine = line + breaks;
    return { line, row };
  }

  realLine(parserLine: number): number {
    return parserLine - this.overcount;
  }
}

function malformed(error: CsvError, position: Position, label: string): UsageError {
  const after = position.lastLine;
  const hints = ['Values containing the delimiter, quotes or line breaks must be wrapped in double quotes, with inner quotes doubled ("").'];
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new UsageError(`${label}: a quoted value starting after line ${after} is never closed`, hints);
    case 'CSV_MAX_RECORD_SIZE':
      return new UsageError(`${label}: the record after line ${after} is over ${MAX_RECORD_CHARS} characters (an unclosed quote?)`, hints);
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new UsageError(`${label} line ${position.realLine(Number(error.lines))}: unexpected text after a closing quote`, hints);
    default:
      return new UsageError(`${label}: not valid CSV near line ${after + 1} (${error.message})`, hints);
  }
}

async function* dataRows(
  records: AsyncIterator<{ record: string[]; info: { lines: number } }>,
  headers: string[],
  position: Position,
  label: string,
): AsyncGenerator<CsvRow> {
  let rowNumber = 0;
  try {
    for (let next = await records.next(); !next.done; next = await records.next()) {
      const fields = next.value.record;
      const { line, row } = position.advance(fields, next.value.info.lines);
      // A line of bare delimiters is how spreadsheets export an empty row.
      if (fields.every((field) => field === '')) continue;
      rowNumber += 1;
      const record = Object.fromEntries(headers.map((name, index) => [name, fields[index] ?? '']));
      const result: CsvRow = { rowNumber, row, line, record };
      if (fields.length !== headers.length) {
        result.problem = `has ${fields.length} value${fields.length === 1 ? '' : 's'} but the header has ${headers.length} columns`;
      }
      yield result;
    }
  } catch (error) {
    throw error instanceof CsvError ? malformed(error, position, label) : error;
  } finally {
    await records.return?.();
  }
}

/**
 * A CSV path as a stream of canonical text (UTF-8, no BOM, LF): a regular file
 * only, so a FIFO or device is refused instead of blocking or reading forever.
 */
export async function openCsvFile(path: string, label: string): Promise<NodeJS.ReadableStream> {
  const { handle } = await openRegularFile(path, label);
  const canonical = canonicalTextStream();
  pipeline(handle.createReadStream({ highWaterMark: CSV_READ_BYTES }), canonical, () => {});
  return canonical;
}

/**
 * Opens a CSV file (a path) or stream and reads its header. Throws a
 * UsageError when the input cannot be read, is empty, binary, not UTF-8 or has
 * no header row.
 */
export async function openCsv(source: string | NodeJS.ReadableStream, options: CsvReadOptions = {}): Promise<CsvFile> {
  const label = options.label ?? sourceLabel(source);
  const input = typeof source === 'string' ? await openCsvFile(source, label) : source;
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  let head: Head;
  let delimiter: string;
  try {
    head = await peekHead(chunks, label);
    delimiter = options.delimiter === undefined ? detectDelimiter(head.text) : normaliseDelimiter(options.delimiter);
  } catch (error) {
    await chunks.return?.(); // closes the file
    throw error;
  }

  const parser: Parser = parse({
    delimiter,
    bom: true,
    info: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  // Errors surface through the parser's iterator; the callback only has to exist.
  pipeline(Readable.from(decodeText(head.chunks, chunks, label)), parser, () => {});
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { lines: number } }>;
  const position = new Position();
  let first;
  try {
    first = await records.next();
  } catch (error) {
    parser.destroy();
    throw error instanceof CsvError ? malformed(error, position, label) : readProblem(error, label);
  }
  if (first.done) throw new UsageError(`${label}: the file is empty`);
  position.advance(first.value.record, first.value.info.lines);
  let headers: string[];
  try {
    headers = headerNames(first.value.record, label);
  } catch (error) {
    parser.destroy();
    throw error;
  }
  return {
    headers,
    delimiter,
    rows: dataRows(records, headers, position, label),
    close: () => parser.destroy(),
  };
}

/**
 * The data rows of a CSV file or stream, one at a time. `onHeader` is called
 * with the header before the first row, so a caller can map columns (and
 * refuse the file) before validating rows.
 */
export async function* readCsvRecords(
  source: string | NodeJS.ReadableStream,
  options: CsvReadOptions & { onHeader?: (headers: string[], delimiter: string) => void } = {},
): AsyncGenerator<CsvRow> {
  const file = await openCsv(source, options);
  try {
    options.onHeader?.(file.headers, file.delimiter);
    yield* file.rows;
  } finally {
    file.close();
  }
}
