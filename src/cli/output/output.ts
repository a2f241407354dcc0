/**
 * Everything a command prints goes through here (product.md §2 "Output"):
 * - `--json`: JSON Lines on stdout, one complete API object per line; with
 *   `--json FIELDS`, `--jq` or `--template`, each record through that
 *   (record-format.ts);
 * - a terminal: tables aligned with spaces and records as `label: value`
 *   lines, times in one labelled zone, colour by the conventions
 *   (terminal-env.ts), long output through a pager (pager.ts); `--plain`
 *   prints every record as `label: value` lines (screen readers);
 * - piped: tab-separated rows, no header, no colour (stable for cut/awk).
 * Progress, warnings and errors go to stderr. Writes respect backpressure so
 * streaming a million records keeps memory flat.
 */
import { isUtf8 } from 'node:buffer';
import { isPaged, JSON_LINES, MORE, PAGES } from '../api/pages.js';
import { cell, stringifyWellFormed, terminalSafe, wellFormedJson } from './terminal-text.js';
import type { TableLayout } from './table-layout.js';
import type { RecordFormat } from './record-format.js';
import type { Progress } from './progress.js';
import type { TimeView } from './time-view.js';
import { plainStyle, type Column, type OutputMode, type OutStream, type ScreenSettings, type Style } from './types.js';

export { cell };

export type { Column, ColorMode, OutputMode, OutStream, ScreenSettings, Style } from './types.js';

export interface OutputOptions {
  json: boolean;
  /** Errors are problem lines on stderr (--json itself given): no plain lines there either. */
  jsonErrors?: boolean;
  quiet: boolean;
  /** --wide: tables show every column at full width, record views every field. */
  wide?: boolean;
  screen: ScreenSettings;
  /** The command's signal: Ctrl-C or SIGTERM stops waiting for a reader that takes nothing more. */
  signal?: AbortSignal;
}

export interface ListOptions {
  /** Said on stderr (terminal only) when there is nothing to show. */
  empty?: string;
  /** What the rows are, plural ("patients"), for "Showing 50 of …". */
  noun?: string;
  /** How many there are in all, when the service tells (campaign counts): only asked when the list was cut. */
  total?: () => Promise<number | undefined>;
  /** Print through the pager on a terminal (default true; false for follow-style lists and work with progress). */
  pager?: boolean;
  /**
   * How the rows are grouped (`--group-by conversation`): the header of the column that shows the
   * group, what tells one group from the next, and a heading for it. When a narrow terminal hides
   * that column, each group starts with its heading on a line of its own, so the grouping is
   * still there to read.
   */
  groupedBy?: GroupedBy<any>;
}

export interface GroupedBy<T> {
  column: string;
  /** Rows with the same key in a row are one group (a conversation's id: two of one patient's differ). */
  key: (row: T) => string;
  /** What the group is (raw text: escaped where printed), and its id, printed after it and never cut. */
  heading: (row: T) => { text: string; id: string };
}

/** The person stopped reading (a pager quit early): the command ends quietly with 0, as with `| head`. */
export class ReaderGone extends Error {
  constructor() {
    super('the pager was closed');
    this.name = 'ReaderGone';
  }
}

/** How many rows a TTY table buffers before printing, so tables stream too. */
const TABLE_CHUNK = 100;

export class Output {
  readonly mode: OutputMode;
  private sink: OutStream;
  private records: RecordFormat | null = null;
  private paging: { close(): Promise<void> } | null = null;
  /** Lines for stderr held back while a pager has the terminal. */
  private held: string[] = [];
  private styles?: Promise<{ out: Style; err: Style }>;
  private timeView?: Promise<TimeView>;
  private activeProgress: Progress | null = null;

  constructor(
    readonly stdout: OutStream,
    readonly stderr: OutStream,
    private readonly opts: OutputOptions,
  ) {
    this.sink = stdout;
    this.mode = opts.json ? 'json' : stdout.isTTY ? 'table' : 'plain';
  }

  get terminalWidth(): number {
    return this.stdout.columns && this.stdout.columns > 0 ? this.stdout.columns : 100;
  }

  /** --plain: records as `label: value` lines on a terminal, no tables, bars or colour. */
  get plainView(): boolean {
    return this.opts.screen.plain;
  }

  /** --json FIELDS, --jq, --template: checked (exit 2) before the command sends anything. */
  async prepare(flags: { jsonFields?: string; jq?: string; template?: string }, known?: readonly string[]): Promise<void> {
    if (flags.jsonFields === undefined && flags.jq === undefined && flags.template === undefined) return;
    const { prepareRecordFormat } = await import('./record-format.js');
    // jq's error messages go by on stderr as they come; with --json, stderr holds problem lines
    // only, and the one that ends the command names jq's first message.
    const onJqError = (message: string) => {
      if (!this.opts.jsonErrors) this.toStderr(terminalSafe(message, { keepLines: true }) + '\n');
    };
    this.records = await prepareRecordFormat(flags, known, Boolean(this.stdout.isTTY), onJqError);
  }

  /** Writes a chunk to stdout, waiting for 'drain' when the reader is slower than us. */
  async write(chunk: string | Uint8Array): Promise<void> {
    if (this.sink.readerGone) throw new ReaderGone();
    if (!this.sink.write(chunk)) await this.drained();
    if (this.sink.readerGone) throw new ReaderGone();
  }

  /** Until the reader has taken what is queued, or the command is stopped (a full pipe nobody reads). */
  private drained(): Promise<void> {
    const signal = this.opts.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const stopped = () => reject(signal!.reason);
      signal?.addEventListener('abort', stopped, { once: true });
      this.sink.once('drain', () => {
        signal?.removeEventListener('abort', stopped);
        resolve();
      });
    });
  }

  async json(value: unknown): Promise<void> {
    if (this.records) return this.write(this.records.format([value]));
    await this.write(stringifyWellFormed(value) + '\n');
  }

  /** A single resource: one JSON line, `label: value` lines, or `field<TAB>value` lines. */
  async resource<T>(obj: T, fields: Column<T>[], view: Column<T>[] = fields): Promise<void> {
    if (this.mode === 'json') return this.json(obj);
    if (this.mode === 'plain') {
      await this.write(fields.map((f) => `${f.header}\t${cell(f.value(obj))}`).join('\n') + '\n');
      return;
    }
    await this.startPager();
    await this.write(await this.recordText(obj, view));
  }

  /**
   * Streams records; returns how many were printed. A paged source (what
   * client.paginate returns) is written a page at a time: one string and one
   * write per page rather than per record, and a TTY table prints each page
   * as it arrives (so a slow stream, like --follow, shows rows at once).
   * With --json, a source that offers JSON Lines is copied through as bytes.
   */
  async list<T>(rows: AsyncIterable<T> | Iterable<T>, columns: Column<T>[], options: ListOptions = {}): Promise<number> {
    let count = 0;
    const table: TableState = { groupedBy: options.groupedBy };
    if (this.mode === 'table' && options.pager !== false) await this.startPager();
    const jsonLines = this.mode === 'json' && isPaged<T>(rows) && (!this.records || this.records.takesJsonText) ? rows[JSON_LINES] : undefined;
    if (jsonLines) {
      // Records exactly as the service sent them, never parsed (json-page.ts).
      for await (const chunk of jsonLines()) {
        const bytes = wellFormedJsonBytes(chunk.lines);
        await this.write(this.records ? this.records.formatJsonText(bytes.toString()) : bytes);
        count += chunk.count;
      }
    } else if (isPaged<T>(rows)) {
      for await (const page of rows[PAGES]()) {
        if (page.length === 0) continue;
        await this.printChunk(page, columns, table);
        count += page.length;
      }
    } else {
      let chunk: T[] = [];
      for await (const row of rows) {
        count++;
        chunk.push(row);
        if (this.mode !== 'table' || chunk.length >= TABLE_CHUNK) {
          await this.printChunk(chunk, columns, table);
          chunk = [];
        }
      }
      if (chunk.length) await this.printChunk(chunk, columns, table);
    }
    this.records?.finish();
    if (this.mode !== 'table') return count;
    if (count === 0 && options.empty) this.info(options.empty);
    // A hidden grouping column is in the group headings: not hidden, so not named.
    const dropped = table.layout ? table.layout.droppedIndexes.map((i) => columns[i]!.header).filter((header) => header !== table.groupedBy?.column) : [];
    if (dropped.length && !table.blocks) {
      const named = `(${dropped.join(', ')} hidden to fit the window; --wide shows all)`;
      this.info(named.length <= this.terminalWidth ? named : `(${dropped.length} columns hidden to fit the window; --wide shows all)`);
    }
    if (isPaged<T>(rows) && rows[MORE]?.()) await this.sayMore(count, options);
    return count;
  }

  /** "Showing 50 of 1,234 recipients" on stderr, for a person: a list cut at --limit says so. */
  private async sayMore(count: number, options: ListOptions): Promise<void> {
    const noun = options.noun ?? 'records';
    const total = await options.total?.().catch(() => undefined);
    const first = count === 1 ? `the first of the ${noun}` : `the first ${count.toLocaleString('en-US')} ${noun}`;
    const shown = total !== undefined && total > count ? `Showing ${count.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${noun}` : `Showing ${first}; there are more`;
    const line = `${shown}. See more with --limit N, or all with --all.`;
    // On a narrow window the hint goes on a line of its own rather than wrapping mid-sentence.
    this.info(line.length <= this.terminalWidth ? line : `${shown}.\nSee more with --limit N, or all with --all.`);
  }

  private async printChunk<T>(rows: T[], columns: Column<T>[], table: TableState): Promise<void> {
    if (this.mode === 'json') {
      await this.write(this.records ? this.records.format(rows) : rows.map((row) => stringifyWellFormed(row) + '\n').join(''));
    } else if (this.mode === 'plain') {
      await this.write(rows.map((row) => columns.map((c) => cell(c.value(row))).join('\t') + '\n').join(''));
    } else {
      await this.printTable(rows, columns, table);
    }
  }

  /** A chunk of a terminal table; the first chunk decides the layout (and prints the header) for the rest. */
  private async printTable<T>(rows: T[], columns: Column<T>[], table: TableState): Promise<void> {
    const [{ renderTable, tableColumns }, times, style] = await Promise.all([import('./table-render.js'), this.times(), this.styleFor('out')]);
    if (this.plainView || table.blocks) {
      table.blocks = true;
      let text = '';
      for (const row of rows) {
        text += (table.printed ? '\n' : '') + (await this.recordText(row, columns, true));
        table.printed = (table.printed ?? 0) + 1;
      }
      await this.write(text);
      return;
    }
    const layoutColumns = tableColumns(columns, times);
    const cells = rows.map((row) => columns.map((c) => this.cellText(c, row, times, 'cell')));
    if (!table.layout) {
      const [{ layoutTable }, { displayWidth }] = await Promise.all([import('./table-layout.js'), import('./text-width.js')]);
      // A droppable column with nothing in it (no channel on a staff chat) is left out rather than shown empty.
      const used = this.opts.wide ? columns.map(() => true) : columns.map((c, i) => c.drop === undefined || cells.some((row) => row[i] !== ''));
      const layout = layoutTable(
        layoutColumns.map((c, i) => (used[i] ? c : { ...c, empty: true })),
        cells,
        this.terminalWidth,
        Boolean(this.opts.wide),
        displayWidth,
      );
      const fits = layout.widths.reduce((a, b) => a + b, 0) + 2 * (layout.widths.length - 1) <= this.terminalWidth;
      const idLost = layout.droppedIndexes.some((i) => columns[i]!.id);
      if ((!fits || idLost) && !this.opts.wide) {
        // Narrower than any table of these columns that keeps the id (a terminal under 40 columns): each row as label: value lines.
        table.blocks = true;
        return this.printTable(rows, columns, table);
      }
      table.layout = layout;
      await this.write(renderTable(layoutColumns, [], layout, style, true));
    }
    const grouping = table.groupedBy;
    const group = grouping ? columns.findIndex((c) => c.header === grouping.column) : -1;
    if (!grouping || group < 0 || !table.layout.droppedIndexes.includes(group)) {
      await this.write(renderTable(layoutColumns, cells, table.layout, style, false));
    } else {
      // The grouping column is hidden: each group's heading on a line of its own instead.
      const { fitWidth } = await import('./text-width.js');
      let text = '';
      for (const [k, row] of rows.entries()) {
        const key = grouping.key(row);
        if (key !== table.group) {
          const heading = grouping.heading(row);
          const id = cell(heading.id);
          const what = fitWidth(cell(heading.text), Math.max(10, this.terminalWidth - id.length - 3));
          text += `${table.group === undefined ? '' : '\n'}${style.bold(what)} · ${id}\n`;
        }
        table.group = key;
        text += renderTable(layoutColumns, [cells[k]!], table.layout, style, false);
      }
      await this.write(text);
    }
    table.printed = (table.printed ?? 0) + rows.length;
  }

  /** One record as `label: value` lines (a get, or a row of --plain or a tiny terminal). */
  private async recordText<T>(obj: T, fields: Column<T>[], fromList = false): Promise<string> {
    const [{ renderRecord }, times, style] = await Promise.all([import('./record-view.js'), this.times(), this.styleFor('out')]);
    const lines = [];
    for (const f of fields) {
      const raw = f.value(obj);
      const empty = raw === null || raw === undefined || raw === '';
      if (!this.opts.wide && (empty || (f.detail && !fromList))) continue;
      const label = f.label ?? f.header.replace(/_/g, ' ');
      lines.push({ label, value: this.cellText(f, obj, times, 'full', !fromList) });
    }
    return renderRecord(lines, this.terminalWidth, style.dim);
  }

  /** A value as a person reads it: times in the zone, everything else as cell() makes it (a record keeps a body's lines). */
  private cellText<T>(column: Column<T>, row: T, times: TimeView, form: 'cell' | 'full', keepLines = false): string {
    const value = column.value(row);
    if (column.time && typeof value === 'string') return cell(form === 'cell' ? times.cell(value) : times.full(value));
    if (keepLines && typeof value === 'string') return terminalSafe(value.replace(/\r\n?/g, '\n').replace(/\t/g, ' '), { keepLines: true });
    return cell(value);
  }

  /** The zone times are shown in (time-view.ts), decided once per command. */
  times(): Promise<TimeView> {
    this.timeView ??= (async () => {
      const [{ chooseTimeView }, profile] = await Promise.all([import('./time-zone.js'), this.opts.screen.profile().catch(() => undefined)]);
      return chooseTimeView(this.opts.screen, profile?.time_zone, (message) => this.warn(message));
    })();
    return this.timeView;
  }

  /** What follows on stdout goes through the pager, where one is wanted (a command writing its own text, msgctl api). */
  async usePager(): Promise<void> {
    await this.startPager();
  }

  /** Starts the pager for what follows on stdout, where one is wanted (pager.ts). */
  private async startPager(): Promise<void> {
    if (this.paging || this.sink !== this.stdout || this.mode !== 'table' || this.plainView || !this.opts.screen.pager) return;
    if ((this.stdout as { fd?: number }).fd !== 1 || !this.stdout.isTTY) return; // only the process's own terminal
    const { pagerFor } = await import('./pager.js');
    const profile = await this.opts.screen.profile().catch(() => undefined);
    const pager = pagerFor(this.stdout, this.opts.screen.env, profile?.pager);
    if (!pager) return;
    this.sink = pager;
    this.paging = pager;
  }

  /**
   * After the command: waits for the pager to exit, then says what was held back meanwhile; a jq
   * program that stopped on an error ends the command with 1 (lists check as they end; a single
   * record, `org --jq 'error("x")'`, exited 0).
   */
  async finish(): Promise<void> {
    const paging = this.paging;
    this.paging = null;
    if (paging) await paging.close();
    for (const line of this.held.splice(0)) this.stderr.write(line);
    this.records?.finish();
  }

  /** Progress of long work on stderr, in the one style (progress.ts); nothing with --quiet. */
  async progress(options: { label: string; total?: number; unit?: string; enabled?: boolean }): Promise<Progress> {
    const { createProgress } = await import('./progress.js');
    const host = { io: { stdout: this.stdout, stderr: this.stderr }, env: this.opts.screen.env, plain: await this.plainOnStderr(), now: this.opts.screen.now };
    const progress = await createProgress(host, { ...options, enabled: (options.enabled ?? true) && !this.opts.quiet });
    // While it shows, notes and warnings step around the progress line instead of breaking into it.
    this.activeProgress = progress;
    const stop = progress.stop.bind(progress);
    progress.stop = () => {
      if (this.activeProgress === progress) this.activeProgress = null;
      stop();
    };
    return progress;
  }

  /** Informational line on stderr (suppressed by --quiet). */
  info(message: string): void {
    // Messages often quote data (a name, a file's text): no control sequence from it reaches the terminal.
    if (!this.opts.quiet) this.toStderr(terminalSafe(message, { keepLines: true }) + '\n');
  }

  /** Warnings always reach stderr. */
  warn(message: string): void {
    this.toStderr(`warning: ${terminalSafe(message, { keepLines: true })}\n`);
  }

  private toStderr(text: string): void {
    if (this.paging) this.held.push(text);
    else if (this.activeProgress) this.activeProgress.log(text);
    else this.stderr.write(text);
  }

  /** Colour for text on stdout (tables, records). */
  async style(): Promise<Style> {
    return this.styleFor('out');
  }

  /** Colour for text on stderr (progress, invalid rows). */
  async errorStyle(): Promise<Style> {
    return this.styleFor('err');
  }

  /**
   * Whether what is drawn on stderr (a question, a progress line) must be plain lines: --plain, or
   * no colour there, whichever way it was turned off (--no-color and --color never, the profile's
   * color, NO_COLOR), as NO_COLOR alone already made the question a plain (y/N) line.
   */
  async plainOnStderr(): Promise<boolean> {
    return this.plainView || (await this.styleFor('err')) === plainStyle;
  }

  private async styleFor(stream: 'out' | 'err'): Promise<Style> {
    this.styles ??= (async () => {
      const screen = this.opts.screen;
      if (screen.plain) return { out: plainStyle, err: plainStyle };
      const { colorMode, colorFor } = await import('./terminal-env.js');
      const profile = screen.colorFlag ? undefined : await screen.profile().catch(() => undefined);
      const mode = colorMode(screen.colorFlag, screen.env, profile?.color);
      const outColor = colorFor(mode, this.stdout, screen.env) && this.mode === 'table';
      const errColor = colorFor(mode, this.stderr, screen.env);
      if (!outColor && !errColor) return { out: plainStyle, err: plainStyle };
      const { Chalk } = await import('chalk');
      const chalk = new Chalk({ level: 1 });
      const colored: Style = { bold: chalk.bold, dim: chalk.dim, red: chalk.red, green: chalk.green, yellow: chalk.yellow };
      return { out: outColor ? colored : plainStyle, err: errColor ? colored : plainStyle };
    })();
    return (await this.styles)[stream];
  }
}

/** What the chunks of one table share. */
interface TableState {
  layout?: TableLayout;
  /** Rows print as label: value blocks (--plain, or a terminal too narrow for a table). */
  blocks?: boolean;
  printed?: number;
  /** ListOptions.groupedBy, and the key of the group printed last. */
  groupedBy?: GroupedBy<any>;
  group?: string;
}

export { plainStyle } from './types.js';

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
