/**
 * Everything a command prints goes through here (product.md §2 "Output"):
 * - `--json`: JSON Lines on stdout, one complete API object per line;
 * - a TTY: human tables (cli-table3) with colour;
 * - piped: tab-separated rows, no header, no colour (stable for cut/awk).
 * Progress, warnings and errors go to stderr. Writes respect backpressure so
 * streaming a million records keeps memory flat.
 */
import { isUtf8 } from 'node:buffer';
import { isPaged, JSON_LINES, PAGES } from '../api/pages.js';
import { cell, stringifyWellFormed, terminalSafe, wellFormedJson } from './terminal-text.js';

export { cell };
import type { TableLayout } from './table-layout.js';

export type OutputMode = 'json' | 'table' | 'plain';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** This column takes what width the terminal has left (e.g. a message body). */
  flex?: boolean;
  /** Preferred table width (padding included); it may still shrink to fit the terminal. */
  width?: number;
  /** Left out of a table that does not fit the terminal (unless --wide): the highest rank goes first. */
  drop?: number;
  /** Never shrunk to fit (an id: a cut one is useless to copy). */
  fixed?: boolean;
  /** An RFC 3339 time: tables show it as short local time (local-time.ts), piped output as given. */
  time?: boolean;
}

export interface OutStream {
  write(chunk: string | Uint8Array, callback?: (err?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface OutputOptions {
  json: boolean;
  color: boolean;
  quiet: boolean;
  /** --wide: tables show every column at full width, wider than the terminal if need be. */
  wide?: boolean;
}

/** How many rows a TTY table buffers before printing, so tables stream too. */
const TABLE_CHUNK = 100;

export class Output {
  readonly mode: OutputMode;

  constructor(
    readonly stdout: OutStream,
    readonly stderr: OutStream,
    private readonly opts: OutputOptions,
  ) {
    this.mode = opts.json ? 'json' : stdout.isTTY ? 'table' : 'plain';
  }

  get colorEnabled(): boolean {
    return this.opts.color && this.mode === 'table';
  }

  get terminalWidth(): number {
    return this.stdout.columns && this.stdout.columns > 20 ? this.stdout.columns : 100;
  }

  /** Writes a chunk to stdout, waiting for 'drain' when the reader is slower than us. */
  async write(chunk: string | Uint8Array): Promise<void> {
    if (!this.stdout.write(chunk)) {
      await new Promise<void>((resolve) => this.stdout.once('drain', () => resolve()));
    }
  }

  async json(value: unknown): Promise<void> {
    await this.write(stringifyWellFormed(value) + '\n');
  }

  /** A single resource: one JSON line, a two-column table, or `field<TAB>value` lines. */
  async resource<T>(obj: T, fields: Column<T>[]): Promise<void> {
    if (this.mode === 'json') return this.json(obj);
    if (this.mode === 'plain') {
      await this.write(fields.map((f) => `${f.header}\t${cell(f.value(obj))}`).join('\n') + '\n');
      return;
    }
    const { default: Table } = await import('cli-table3');
    const style = await this.style();
    const table = new Table({ style: { head: [], border: [] }, wordWrap: true, colWidths: [22, Math.max(30, this.terminalWidth - 26)] });
    for (const f of fields) table.push([style.dim(f.header), cell(f.value(obj))]);
    await this.write(table.toString() + '\n');
  }

  /**
   * Streams records; returns how many were printed. A paged source (what
   * client.paginate returns) is written a page at a time: one string and one
   * write per page rather than per record, and a TTY table prints each page
   * as it arrives (so a slow stream, like --follow, shows rows at once).
   * With --json, a source that offers JSON Lines is copied through as bytes.
   */
  async list<T>(
    rows: AsyncIterable<T> | Iterable<T>,
    columns: Column<T>[],
    options: { empty?: string } = {},
  ): Promise<number> {
    let count = 0;
    const table: TableState = {};
    const jsonLines = this.mode === 'json' && isPaged<T>(rows) ? rows[JSON_LINES] : undefined;
    if (jsonLines) {
      // Records exactly as the service sent them, never parsed (json-page.ts).
      for await (const chunk of jsonLines()) {
        await this.write(wellFormedJsonBytes(chunk.lines));
        count += chunk.count;
      }
    } else if (isPaged<T>(rows)) {
      for await (const page of rows[PAGES]()) {
        if (page.length === 0) continue;
        if (this.mode === 'table') await this.printTable(page, columns, table);
        else {
          let text = '';
          for (const row of page) text += this.line(row, columns);
          await this.write(text);
        }
        count += page.length;
      }
    } else {
      let chunk: T[] = [];
      for await (const row of rows) {
        count++;
        if (this.mode !== 'table') await this.write(this.line(row, columns));
        else {
          chunk.push(row);
          if (chunk.length >= TABLE_CHUNK) {
            await this.printTable(chunk, columns, table);
            chunk = [];
          }
        }
      }
      if (chunk.length) await this.printTable(chunk, columns, table);
    }
    if (count === 0 && options.empty && this.mode === 'table') this.info(options.empty);
    const dropped = table.layout?.dropped ?? [];
    if (dropped.length) {
      const named = `(${dropped.join(', ')} hidden to fit the window; --wide shows all)`;
      this.info(named.length <= this.terminalWidth ? named : `(${dropped.length} columns hidden to fit the window; --wide shows all)`);
    }
    return count;
  }

  /** One record as a JSON line or a TSV row. */
  private line<T>(row: T, columns: Column<T>[]): string {
    if (this.mode === 'json') return stringifyWellFormed(row) + '\n';
    return columns.map((c) => cell(c.value(row))).join('\t') + '\n';
  }

  /** A chunk of a TTY table; the first chunk decides the layout (and prints the header) for the rest. */
  private async printTable<T>(rows: T[], columns: Column<T>[], table: TableState): Promise<void> {
    const [{ default: Table }, { shortLocalTime }, style] = await Promise.all([import('cli-table3'), import('./local-time.js'), this.style()]);
    // Times in the one table format (short local time), everything else as cell() makes it.
    const all = rows.map((row) =>
      columns.map((c) => {
        const value = c.value(row);
        return c.time && typeof value === 'string' ? cell(shortLocalTime(value)) : cell(value);
      }),
    );
    const first = !table.layout;
    if (!table.layout) {
      const { layoutTable } = await import('./table-layout.js');
      table.layout = layoutTable(columns, all, this.terminalWidth, Boolean(this.opts.wide));
    }
    const { shown, widths } = table.layout;
    const out = new Table({
      head: first ? shown.map((i) => style.bold(columns[i]!.header)) : [],
      colWidths: widths,
      style: { head: [], border: [], compact: true },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
      truncate: '…',
    });
    for (const row of all) out.push(shown.map((i) => row[i]!));
    await this.write(out.toString() + '\n');
  }

  /** Informational line on stderr (suppressed by --quiet). */
  info(message: string): void {
    // Messages often quote data (a name, a file's text): no control sequence from it reaches the terminal.
    if (!this.opts.quiet) this.stderr.write(terminalSafe(message, { keepLines: true }) + '\n');
  }

  /** Warnings always reach stderr. */
  warn(message: string): void {
    this.stderr.write(`warning: ${terminalSafe(message, { keepLines: true })}\n`);
  }

  async style(): Promise<Style> {
    if (!this.opts.color || !(this.stdout.isTTY || this.stderr.isTTY)) return plainStyle;
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    return { bold: chalk.bold, dim: chalk.dim, red: chalk.red, green: chalk.green, yellow: chalk.yellow };
  }
}

/** What the chunks of one table share. */
interface TableState {
  layout?: TableLayout;
}

export interface Style {
  bold: (s: string) => string;
  dim: (s: string) => string;
  red: (s: string) => string;
  green: (s: string) => string;
  yellow: (s: string) => string;
}

const identity = (s: string) => s;
export const plainStyle: Style = { bold: identity, dim: identity, red: identity, green: identity, yellow: identity };

/**
 * JSON Lines copied from a response body, as UTF-8 every JSON reader accepts:
 * invalid bytes become U+FFFD and lone surrogate escapes `\ufffd`. Bodies
 * that are already fine (nearly all) are passed on untouched.
 */
function wellFormedJsonBytes(lines: Buffer): Buffer | string {
  const suspect = lines.indexOf('\\ud') !== -1 || lines.indexOf('\\uD') !== -1;
  if (!suspect && isUtf8(lines)) return lines;
  return wellFormedJson(new TextDecoder().decode(lines));
}
