/**
 * How msgctl ends on a signal: the first one aborts the command's signal
 * (ctx.signal), so it stops waiting (stdin, a retry, a stream), lets a batch
 * journal what is in flight, removes what it registered (`events listen`
 * endpoints) and flushes sandbox writes, then exits with 130 or 143.
 *
 * SIGHUP (the terminal or ssh session closed; on Windows, Node's name for the
 * console window being closed) and, on Windows, SIGBREAK (Ctrl-Break) are
 * ended like SIGTERM: each means "stop now", and a command that ignored them
 * would leave webhook endpoints behind or lose sandbox writes. A second
 * Ctrl-C exits at once.
 */
import { ExitCode } from './exit-codes.js';

export interface SignalEmitter {
  on(event: string, listener: () => void): unknown;
}

/** Signals handled like SIGTERM on `platform`. */
export function terminatingSignals(platform: NodeJS.Platform): string[] {
  return platform === 'win32' ? ['SIGTERM', 'SIGHUP', 'SIGBREAK'] : ['SIGTERM', 'SIGHUP'];
}

export function handleSignals(
  emitter: SignalEmitter,
  controller: AbortController,
  exit: (code: number) => void,
  platform: NodeJS.Platform = process.platform,
): void {
  let interrupts = 0;
  emitter.on('SIGINT', () => {
    interrupts++;
    if (interrupts > 1) return exit(ExitCode.Interrupted);
    controller.abort(Object.assign(new Error('Interrupted'), { name: 'AbortError' }));
  });
  for (const name of terminatingSignals(platform)) {
    emitter.on(name, () => {
      if (controller.signal.aborted) return;
      // `signal: 'SIGTERM'` makes it exit 143 with "Terminated."; `received` says which one came.
      controller.abort(Object.assign(new Error('Terminated'), { name: 'AbortError', signal: 'SIGTERM', received: name }));
    });
  }
}

/**
 * After Ctrl-C or SIGTERM a command gets a few seconds to finish cleanly
 * (journals written, listeners deregistered); whatever is still running then
 * (a read that ignores the signal, a stuck helper) does not keep the process
 * alive: cron's `timeout` and a person's Ctrl-C must end every command.
 */
const SIGNAL_GRACE_MS = 5000;
function exitSoon(signal: 'SIGINT' | 'SIGTERM'): void {
  setTimeout(() => {
    // process.exit would wait for a worker thread stuck in a blocking call (opening a FIFO);
    // the signal's default action ends the process at once, with the usual 128+n status.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }, SIGNAL_GRACE_MS).unref();
}

/**
 * A second Ctrl-C: the process ends at once with status 130. On POSIX by SIGINT's default
 * action, as after the grace period: process.exit would first wait for every worker thread,
 * and the batch thread may be stuck in a blocking call (a journal fsync on a hung network
 * disk). Shells see 130 either way; Windows has no such signal, so exit is the way there.
 */
function interruptedNow(code: number): void {
  if (process.platform === 'win32') process.exit(code);
  process.removeAllListeners('SIGINT');
  process.kill(process.pid, 'SIGINT');
}

/**
 * What the process's main thread sets up before a command runs (main(), and the
 * main thread of a batch run in a worker): signals abort the returned controller,
 * SIGNAL_GRACE_MS after the first one the process ends whatever still runs. (A closed
 * stdout pipe is handled where stdout is opened: output/direct-output.ts.)
 */
export function superviseProcess(): AbortController {
  const controller = new AbortController();
  handleSignals(process, controller, interruptedNow);
  controller.signal.addEventListener(
    'abort',
    () => exitSoon((controller.signal.reason as { signal?: string } | undefined)?.signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'),
    { once: true },
  );
  return controller;
}
