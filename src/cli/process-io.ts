import type { Io } from './context.js';
import { mainThreadOutput } from './output/direct-output.js';

/**
 * The process's own streams as a command's Io (the batch thread's, where they are
 * Node's forwarding streams to the main thread). process.stdin is opened on first
 * use: most commands never read it, and opening it costs start-up.
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

/**
 * The main thread's Io (main()): stdout and stderr written directly to a file or /dev/null,
 * through Node's stream to a pipe or a terminal, never blocking (output/direct-output.ts).
 */
export function mainThreadIo(): Io {
  return {
    stdout: mainThreadOutput(1),
    stderr: mainThreadOutput(2),
    get stdin() {
      return process.stdin;
    },
  };
}
