import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import { readFileBytes, readStreamBytes, readTextFrom } from '../../src/cli/util/input-file.js';

const dir = mkdtempSync(join(tmpdir(), 'msgctl-input-'));
const MiB = { maxBytes: 1024 * 1024, why: 'test limit' };

describe('readFileBytes', () => {
  it('reads a file larger than one chunk whole', async () => {
    const file = join(dir, 'big.txt');
    writeFileSync(file, Buffer.alloc(300 * 1024, 'x'));
    expect((await readFileBytes(file, 'big', MiB)).length).toBe(300 * 1024);
  });

  it('refuses a file over the limit from its size', async () => {
    const file = join(dir, 'over.txt');
    writeFileSync(file, Buffer.alloc(2048, 'x'));
    await expect(readFileBytes(file, '--body-file over.txt', { maxBytes: 1024, why: 'a body is short' })).rejects.toThrow(
      '--body-file over.txt is larger than 1 KiB; a body is short. Nothing was sent.',
    );
  });

  it.skipIf(process.platform !== 'linux')('reads regular files whose size says 0 (/proc) to the end', async () => {
    const text = (await readFileBytes('/proc/self/status', 'status', MiB)).toString();
    expect(text).toMatch(/^Name:/);
    expect(text).toContain('\nPid:');
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO without waiting for a writer, and a device', async () => {
    const fifo = join(dir, 'in.fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(readFileBytes(fifo, '--csv in.fifo', MiB)).rejects.toThrow(/it is a named pipe \(FIFO\); give a regular file, or - to read stdin/);
    await expect(readFileBytes('/dev/zero', '--body-file /dev/zero', MiB)).rejects.toThrow(/it is a device/);
    await expect(readFileBytes(dir, '--input dir', MiB)).rejects.toBeInstanceOf(UsageError);
  });
});

describe('readStreamBytes', () => {
  it('stops at the limit', async () => {
    const endless = Readable.from((function* () {
      for (;;) yield Buffer.alloc(64 * 1024);
    })());
    await expect(readStreamBytes(endless, 'stdin', MiB)).rejects.toThrow(/stdin is larger than 1 MiB/);
  });

  it('ends at once when the signal aborts', async () => {
    const silent = new Readable({ read() {} });
    const abort = new AbortController();
    const pending = readStreamBytes(silent, 'stdin', MiB, abort.signal);
    abort.abort(Object.assign(new Error('Terminated'), { name: 'AbortError' }));
    await expect(pending).rejects.toThrow('Terminated');
  });

  it('decodes what it read with the shared decoder', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Zoë', 'utf16le')]);
    expect(await readTextFrom({ stdin: Readable.from([utf16]) }, '-', 'stdin', MiB)).toBe('Zoë');
  });
});
