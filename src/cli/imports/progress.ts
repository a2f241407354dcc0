/**
 * Import progress on stderr. On a terminal, one cli-progress bar counting
 * rows whose fate is known; anything else printed meanwhile (invalid rows on
 * stderr, outcome tables on stdout) goes through `log`/`pause`, which clear
 * the bar first so lines never interleave with it. Off a terminal there is
 * no bar, only the lines callers log.
 */
import type { OutStream } from '../output/output.js';
import { writableOf } from '../output/direct-output.js';
import { terminalSafe } from '../output/terminal-text.js';

export interface Progress {
  /** Total rows to expect; an estimate until the whole file has been read. */
  setTotal(total: number): void;
  update(done: number): void;
  /** Writes text to stderr without garbling the bar. */
  log(text: string): void;
  /** Runs `write` (which prints elsewhere on the terminal) with the bar out of the way. */
  pause<T>(write: () => Promise<T>): Promise<T>;
  stop(): void;
}

/**
 * Without `total`, the bar waits for the first setTotal() before it shows: a
 * made-up total would draw "0/1 rows" and then jump.
 */
export async function createProgress(
  io: { stdout: OutStream; stderr: OutStream },
  options: { enabled: boolean; label: string; total?: number },
): Promise<Progress> {
  const { stderr } = io;
  if (!options.enabled || !stderr.isTTY) return lineProgress(stderr);
  const { SingleBar } = await import('cli-progress');
  const bar = new SingleBar({
    stream: writableOf(stderr), // a terminal, so Node's stream already
    format: `${options.label} [{bar}] {percentage}% | {value}/{total} rows | ETA {eta_formatted}`,
    barsize: 30,
    clearOnComplete: true,
    hideCursor: true,
    fps: 8,
  });
  let total = options.total;
  let done = 0;
  let running = false;
  let stopped = false;
  const start = () => {
    if (total === undefined || stopped) return;
    bar.start(Math.max(total, done, 1), done);
    running = true;
  };
  const halt = () => {
    if (running) bar.stop();
    running = false;
  };
  const setTotal = (n: number) => {
    total = n;
    if (running) bar.setTotal(Math.max(total, done, 1));
    else start();
  };
  start();
  return {
    setTotal,
    update(n) {
      done = n;
      if (total !== undefined && done > total) setTotal(done);
      if (running) bar.update(done);
    },
    log(text) {
      halt();
      stderr.write(terminalSafe(text, { keepLines: true }));
      start();
    },
    async pause(write) {
      // Only output to the same terminal can collide with the bar.
      if (!io.stdout.isTTY) return write();
      halt();
      try {
        return await write();
      } finally {
        start();
      }
    },
    stop() {
      stopped = true;
      halt();
    },
  };
}

function lineProgress(stderr: OutStream): Progress {
  return {
    setTotal() {},
    update() {},
    log: (text) => void stderr.write(terminalSafe(text, { keepLines: true })),
    pause: (write) => write(),
    stop() {},
  };
}
