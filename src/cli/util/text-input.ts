/**
 * Message text from stdin or a file, read the same way by every command that
 * takes a body (send, me send, campaigns): one trailing newline (which shells
 * and editors add) is not part of the message, and Ctrl-C while waiting on
 * stdin ends the command before anything is sent.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

const TRAILING_NEWLINE = /\r?\n$/;

export async function readStdinText(ctx: Context): Promise<string> {
  const { readAll } = await import('./stdin.js');
  return (await readAll(ctx.io.stdin, ctx.signal)).replace(TRAILING_NEWLINE, '');
}

/** `-` reads stdin; anything else is a path, and a failure names the flag it came from. */
export async function readFileText(ctx: Context, path: string, flag: string): Promise<string> {
  if (path === '-') return readStdinText(ctx);
  const { readFile } = await import('node:fs/promises');
  try {
    return (await readFile(path, 'utf8')).replace(TRAILING_NEWLINE, '');
  } catch (err) {
    throw new UsageError(`Cannot read ${flag} ${path}: ${(err as Error).message}`);
  }
}
