import type { Io } from './context.js';

/**
 * The process's own streams as a command's Io (main() and the batch thread's).
 * process.stdin is opened on first use: most commands never read it, and opening
 * it costs start-up (and in the batch thread, it is Node's forwarding stream).
 */
export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    get stdin() {
      return process.stdin;
    },
  };
}
