/**
 * Replacing a file that another program holds open, as Windows reports it
 * (EPERM/EACCES/EBUSY from rename), simulated with an injected rename that
 * fails N times.
 */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { rename as realRename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileInUseError, replaceFile, writeFileAtomic } from '../../src/cli/util/replace-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'msgctl-replace-'));
});

/** A rename that fails with `code` the first `failures` times, and records the pauses taken. */
function flakyRename(code: string, failures: number) {
  const calls = { renames: 0, slept: [] as number[] };
  return {
    calls,
    rename: async (from: string, to: string) => {
      calls.renames++;
      if (calls.renames <= failures) throw Object.assign(new Error(`${code}: operation not permitted, rename`), { code });
      await realRename(from, to);
    },
    sleep: async (ms: number) => void calls.slept.push(ms),
  };
}

describe('replaceFile', () => {
  it.each(['EPERM', 'EACCES', 'EBUSY'])('retries %s with backoff until the other program lets go', async (code) => {
    const target = join(dir, 'config.json');
    await writeFile(target, 'old');
    const flaky = flakyRename(code, 4);
    await writeFileAtomic(target, 'new', flaky);
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(flaky.calls.renames).toBe(5);
    expect(flaky.calls.slept).toEqual([50, 100, 200, 400]);
    expect(await readdir(dir)).toEqual(['config.json']);
  });

  it('gives up after the bounded wait, says to close the file, and leaves no temp file', async () => {
    const target = join(dir, 'config.json');
    await writeFile(target, 'old');
    const flaky = flakyRename('EBUSY', Infinity);
    const err = await writeFileAtomic(target, 'new', { ...flaky, maxWaitMs: 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileInUseError);
    expect((err as FileInUseError).message).toContain('another program has it open (EBUSY)');
    expect((err as FileInUseError).hints.join('\n')).toContain('is it open in Excel?');
    expect(flaky.calls.slept.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['config.json']);
  });

  it('keeps the temp file when asked (a download the user would lose) and says where', async () => {
    const target = join(dir, 'chat.csv');
    const partial = `${target}.partial`;
    await writeFile(target, 'open in Excel');
    await writeFile(partial, 'downloaded');
    const flaky = flakyRename('EPERM', Infinity);
    const err = (await replaceFile(partial, target, { ...flaky, maxWaitMs: 200, keepTempOnFailure: true }).catch((e: unknown) => e)) as FileInUseError;
    expect(err.keptTemp).toBe(partial);
    expect(err.hints.join('\n')).toContain(partial);
    expect(await readFile(partial, 'utf8')).toBe('downloaded');
  });

  it('does not retry other errors, and cleans up', async () => {
    const flaky = flakyRename('EIO', 1);
    const target = join(dir, 'x.json');
    await expect(writeFileAtomic(target, 'x', flaky)).rejects.toMatchObject({ code: 'EIO' });
    expect(flaky.calls.renames).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });
});
