/**
 * A yes/no question as a plain line, where msgctl draws no cursor control (TERM=dumb,
 * NO_COLOR, CLICOLOR=0, --plain: output/terminal-env.ts): the question and "(y/N)" on
 * stderr, the answer read as one line of stdin. "y" or "yes" (any case) is yes; anything
 * else, an empty line or the end of input is no, as the prompt says.
 */
import { createInterface } from 'node:readline';
import type { Io } from '../context.js';

export async function plainConfirm(question: string, io: Io, signal?: AbortSignal): Promise<boolean> {
  signal?.throwIfAborted();
  io.stderr.write(`${question} (y/N) `);
  // Input that has already ended never says yes (and readline would wait for it forever).
  if ((io.stdin as { readableEnded?: boolean }).readableEnded) return false;
  const lines = createInterface({ input: io.stdin, terminal: false });
  let onAbort: (() => void) | undefined;
  try {
    const answer = await new Promise<string | null>((resolve, reject) => {
      onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      lines.once('line', (line) => resolve(line));
      lines.once('close', () => resolve(null));
    });
    return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    lines.close();
  }
}
