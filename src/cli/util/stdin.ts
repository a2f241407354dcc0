import type { Readable } from 'node:stream';

/**
 * Reads a whole stream as UTF-8 (bodies and secrets piped on stdin). Ctrl-C
 * while waiting for input rejects with the signal's reason, so nothing is sent.
 */
export async function readAll(stream: Readable, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const chunks: Buffer[] = [];
  const onAbort = () => stream.destroy(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  signal?.throwIfAborted();
  return Buffer.concat(chunks).toString('utf8');
}
