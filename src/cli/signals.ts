/**
 * How msgctl ends on a signal: the first one aborts the command's signal
 * (ctx.signal), so it stops waiting (stdin, a retry, a stream), lets a batch
 * journal what is in flight, removes what it registered (`events listen`
 * endpoints) and flushes sandbox writes, then exits with 130 or 143.
 *
 * SIGHUP (the terminal or ssh session closed) and, on Windows, SIGBREAK
 * (Ctrl-Break, or a console window being closed) are ended like SIGTERM: each
 * means "stop now", and a command that ignored them would leave webhook
 * endpoints behind or lose sandbox writes. A second Ctrl-C exits at once.
 */
import { ExitCode } from './output/exit-codes.js';

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
