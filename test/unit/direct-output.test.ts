/**
 * The helpers around direct stdout/stderr writes (src/cli/output/direct-output.ts)
 * that main() relies on before it exits; the writes themselves are tested end to
 * end in test/e2e/stdout-direct.test.ts.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DirectOutput, whenWritten, writableOf } from '../../src/cli/output/direct-output.js';

/** A stream whose writes complete only when the test says so, like a pipe to a slow reader. */
function slowStream() {
  const callbacks: Array<() => void> = [];
  const stream = {
    writableLength: 0,
    write(chunk: string | Uint8Array, callback?: () => void) {
      this.writableLength += chunk.length;
      callbacks.push(() => {
        this.writableLength -= chunk.length;
        callback?.();
      });
      return true;
    },
    once: () => stream,
  };
  return { stream, completeAll: () => callbacks.splice(0).forEach((c) => c()) };
}

describe('whenWritten', () => {
  it('waits for what a stream still holds, and only for that', async () => {
    const { stream, completeAll } = slowStream();
    stream.write('the end of a long answer');
    let done = false;
    const waiting = whenWritten(stream).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    completeAll(); // the earlier write, then the empty one queued behind it
    completeAll();
    await waiting;
    expect(done).toBe(true);
  });

  it('returns at once for a stream with nothing pending and for a DirectOutput that never handed over', async () => {
    const { stream } = slowStream();
    await whenWritten(stream, new DirectOutput(1));
  });
});

describe('writableOf', () => {
  it('gives a Node stream back as it is, and refuses what cannot be piped into', () => {
    const stream = new PassThrough();
    expect(writableOf(stream)).toBe(stream);
    expect(() => writableOf({ write: () => true, once: () => undefined })).toThrow(TypeError);
  });
});
