/**
 * Progress of long work on stderr, one style for imports, batch sends,
 * exports and `campaigns watch`:
 *
 *   importing [############------------------]  41%  1,234/3,000 rows · 2m 05s left
 *
 * On a terminal that allows cursor control (terminal-env.ts), that one line is
 * redrawn in place, a few times a second at most, never wider than the
 * terminal, with no time left shown until there is a rate to reckon it from
 * (no NaN, Infinity or "NFs"). Anywhere else (cron, a log, TERM=dumb,
 * NO_COLOR, --plain) work that has run for 10 s gets a timestamped line,
 * then one at every further 10 % and at least every 30 s while it moves, so
 * a log shows the job was alive (short work prints none):
 *
 *   2026-11-26T20:02:00Z importing: 1,234/3,000 rows (41%)
 *
 * Anything else printed meanwhile (invalid rows on stderr, outcome tables on
 * stdout) goes through `log`/`pause`, which clear the line first so text
 * never interleaves with it.
 */
import type { OutStream } from './types.js';
import { terminalSafe } from './terminal-text.js';
import { cursorControl } from './terminal-env.js';

export interface Progress {
  /** Total to expect; an estimate until the whole file has been read. */
  setTotal(total: number): void;
  /** How many are done, and an optional short note (a campaign's counts). */
  update(done: number, note?: string): void;
  /** Writes text to stderr without garbling the progress line. */
  log(text: string): void;
  /** Runs `write` (which prints elsewhere on the terminal) with the line out of the way. */
  pause<T>(write: () => Promise<T>): Promise<T>;
  stop(): void;
}

export interface ProgressHost {
  io: { stdout: OutStream; stderr: OutStream };
  env: Record<string, string | undefined>;
  /** --plain / MSGCTL_PLAIN: plain lines even on a terminal. */
  plain?: boolean;
  now?: () => number;
}

export interface ProgressOptions {
  enabled: boolean;
  label: string;
  total?: number;
  /** What is counted ("rows", "messages"); none for work without a count (an export). */
  unit?: string;
}

const REDRAW_MS = 125;
const LOG_EVERY_MS = 30_000;
/** Work shorter than this prints no progress lines in a log. */
const LOG_AFTER_MS = 10_000;

/**
 * Without `total`, a counted bar waits for the first setTotal() before it
 * shows: a made-up total would draw "0/1 rows" and then jump.
 */
export async function createProgress(host: ProgressHost, options: ProgressOptions): Promise<Progress> {
  const { stderr } = host.io;
  const now = host.now ?? Date.now;
  // Text from callers may quote data (a file's rows): shown safe. Only our own cursor controls are written as they are.
  const write = (text: string) => void stderr.write(terminalSafe(text, { keepLines: true }));
  if (!options.enabled) return quietProgress(write);
  const live = cursorControl(stderr, host.env, Boolean(host.plain));
  const state = new ProgressState(terminalSafe(options.label), options.unit, options.total, now);
  const control = (text: string) => void stderr.write(text);
  return live ? liveProgress(host, state, write, control) : loggedProgress(state, write, now);
}

/** Counts and the rate they move at; formats one line of a given width. */
class ProgressState {
  done = 0;
  note = '';
  private readonly started: number;
  private firstCounted: { at: number; done: number } | null = null;

  constructor(
    readonly label: string,
    readonly unit: string | undefined,
    public total: number | undefined,
    private readonly now: () => number,
  ) {
    this.started = now();
  }

  set(done: number, note?: string): void {
    // The rate counts what was done after the first count seen: work watched from part-way (a
    // running campaign) would otherwise count all that was done before as done at once.
    if (this.firstCounted === null && done > 0) this.firstCounted = { at: this.now(), done };
    this.done = done;
    if (note !== undefined) this.note = terminalSafe(note);
    if (this.total !== undefined && done > this.total) this.total = done;
  }

  /** A total learnt late (or corrected): never below what is already done. */
  setTotal(total: number): void {
    this.total = Math.max(total, this.done);
  }

  get fraction(): number | null {
    if (this.total === undefined || this.total <= 0) return null;
    return Math.min(1, this.done / this.total);
  }

  /** Seconds left at the rate so far; null until it can be reckoned. */
  secondsLeft(): number | null {
    if (this.total === undefined || !this.firstCounted) return null;
    const elapsed = (this.now() - this.firstCounted.at) / 1000;
    const rate = (this.done - this.firstCounted.done) / elapsed;
    if (!Number.isFinite(rate) || rate <= 0 || elapsed < 1) return null;
    const left = (this.total - this.done) / rate;
    return Number.isFinite(left) && left >= 0 ? left : null;
  }

  elapsedSeconds(): number {
    return (this.now() - this.started) / 1000;
  }

  counts(): string {
    if (this.unit === undefined) return formatDuration(this.elapsedSeconds());
    const total = this.total === undefined ? '' : `/${this.total.toLocaleString('en-US')}`;
    return `${this.done.toLocaleString('en-US')}${total} ${this.unit}`;
  }

  /** The terminal line, at most `width` columns: label, bar, percent, counts, time left, note. */
  line(width: number): string {
    const fraction = this.fraction;
    const left = this.secondsLeft();
    const tail = [this.counts(), left === null ? null : `${formatDuration(left)} left`, this.note || null].filter(Boolean).join(' · ');
    const percent = fraction === null ? '' : ` ${String(Math.floor(fraction * 100)).padStart(3)}%`;
    const fixed = `${this.label} []${percent}  ${tail}`;
    const barWidth = Math.min(30, width - [...fixed].length);
    if (fraction !== null && barWidth >= 10) {
      const filled = Math.round(fraction * barWidth);
      return `${this.label} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${percent}  ${tail}`;
    }
    const text = `${this.label}${percent}  ${tail}`;
    return [...text].length <= width ? text : [...text].slice(0, Math.max(1, width - 1)).join('') + '…';
  }

  /** A log line: "importing: 1,234/3,000 rows (41%)". */
  logLine(): string {
    const fraction = this.fraction;
    const percent = fraction === null ? '' : ` (${Math.floor(fraction * 100)}%)`;
    return `${this.label}: ${this.counts()}${percent}${this.note ? ` · ${this.note}` : ''}`;
  }
}

function liveProgress(host: ProgressHost, state: ProgressState, write: (text: string) => void, control: (text: string) => void): Progress {
  const { stderr, stdout } = host.io;
  const width = () => Math.max(10, (stderr.columns && stderr.columns > 0 ? stderr.columns : 80) - 1);
  let shown = false;
  let stopped = false;
  let lastDraw = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const ready = () => state.unit === undefined || state.total !== undefined;
  const draw = () => {
    if (stopped || !ready()) return;
    timer = null;
    lastDraw = Date.now();
    control(`\r\x1b[2K${state.line(width())}`);
    shown = true;
  };
  const schedule = () => {
    if (timer || stopped) return;
    const wait = REDRAW_MS - (Date.now() - lastDraw);
    if (wait <= 0) draw();
    else timer = setTimeout(draw, wait);
  };
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (shown) control('\r\x1b[2K');
    shown = false;
  };
  draw();
  return {
    setTotal(total) {
      state.setTotal(total);
      schedule();
    },
    update(done, note) {
      state.set(done, note);
      schedule();
    },
    log(text) {
      clear();
      write(text);
      draw();
    },
    async pause(run) {
      // Only output to the same terminal can collide with the line.
      if (!stdout.isTTY) return run();
      clear();
      try {
        return await run();
      } finally {
        draw();
      }
    },
    stop() {
      clear();
      stopped = true;
    },
  };
}

function loggedProgress(state: ProgressState, write: (text: string) => void, now: () => number): Progress {
  const startedAt = now();
  let lastAt = -Infinity;
  let lastTenth = -1;
  let started = false;
  const stamp = () => new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const maybeLog = () => {
    if (state.unit !== undefined && state.total === undefined) return;
    if (now() - startedAt < LOG_AFTER_MS) return;
    const fraction = state.fraction;
    const tenth = fraction === null ? -1 : Math.floor(fraction * 10);
    const due = !started || tenth > lastTenth || now() - lastAt >= LOG_EVERY_MS;
    if (!due) return;
    started = true;
    lastTenth = Math.max(lastTenth, tenth);
    lastAt = now();
    write(`${stamp()} ${state.logLine()}\n`);
  };
  maybeLog();
  return {
    setTotal(total) {
      state.setTotal(total);
      maybeLog();
    },
    update(done, note) {
      state.set(done, note);
      maybeLog();
    },
    log: write,
    pause: (run) => run(),
    stop() {},
  };
}

function quietProgress(write: (text: string) => void): Progress {
  return { setTotal() {}, update() {}, log: write, pause: (run) => run(), stop() {} };
}

/** "45s", "4m 05s", "2h 03m". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
