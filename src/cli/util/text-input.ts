/**
 * Message text from stdin or a file, read the same way by every command that
 * takes a body (send, me send, campaigns) and by --template-file: decoded by the
 * one text decoder (UTF-8 with or without BOM, UTF-16 with BOM), CRLF → LF, and
 * one trailing newline (which shells and editors add) is not part of the message.
 * Only regular files (or `-`), read up to a limit; Ctrl-C or SIGTERM while waiting
 * on stdin ends the command before anything is sent.
 */
import type { Context } from '../context.js';
import { toLf } from './text-decode.js';
import type { ReadLimit } from './input-file.js';

/** A body is at most 1,600 characters; 4 bytes each is the most any of them can take in UTF-8. */
export const MESSAGE_TEXT_LIMIT: ReadLimit = {
  maxBytes: 64 * 1024,
  why: 'a message body is at most 1,600 characters',
};

const TRAILING_NEWLINE = /\n$/;

/** Decoded text as a message: LF line ends, without the one trailing newline. */
export function messageText(decoded: string): string {
  return toLf(decoded).replace(TRAILING_NEWLINE, '');
}

export async function readStdinText(ctx: Context): Promise<string> {
  return readFileText(ctx, '-', 'stdin');
}

/** `-` reads stdin; anything else is a path, and a failure names the flag it came from. */
export async function readFileText(ctx: Context, path: string, flag: string): Promise<string> {
  const { readTextFrom } = await import('./input-file.js');
  const label = path === '-' ? (flag === 'stdin' ? 'stdin' : `${flag} - (stdin)`) : `${flag} ${path}`;
  return messageText(await readTextFrom({ stdin: ctx.io.stdin, signal: ctx.signal }, path, label, MESSAGE_TEXT_LIMIT));
}
