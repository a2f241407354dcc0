/**
 * Issue 32, item 6: an input file another program holds (EBUSY, and EPERM on
 * Windows) says which programs do that; a UTF-16 file with an odd number of
 * bytes is damaged UTF-16, not "not UTF-8", whichever way it is read (a body
 * or template file, stdin, a CSV). The platform is faked where the wording
 * depends on it; the held file is an open() that fails as Windows makes it fail.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCsv } from '../../src/cli/csv/read.js';
import { unreadable } from '../../src/cli/util/input-file.js';
import { decodeText } from '../../src/cli/util/text-decode.js';
import { useSandbox } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv } from '../helpers/in-process.js';
import { patchFsPromises } from '../helpers/fs-promises-patch.js';

// open() of a file whose name says it is held fails the way Windows fails it.
patchFsPromises('open', (real) => async (path, ...rest) => {
  const held = /held-(EBUSY|EPERM)/.exec(String(path));
  if (held) throw Object.assign(new Error(`${held[1]}: resource busy or locked, open '${String(path)}'`), { code: held[1] });
  return real(path, ...rest);
});

const sandbox = useSandbox();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'msgctl-input-problems-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A UTF-16LE file with a BOM, and one byte more: cut short in the middle of a character. */
const oddUtf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le'), Buffer.from([0x41])]);

describe('a file another program holds', () => {
  it.each([
    ['win32', 'EBUSY', true],
    ['win32', 'EPERM', true],
    ['linux', 'EBUSY', true],
    ['darwin', 'EBUSY', true],
    ['linux', 'EPERM', false],
    ['darwin', 'EPERM', false],
  ] as const)('%s %s', (platform, code, held) => {
    const err = unreadable('--csv tomorrow.csv', code, `${code}: …`, platform);
    const text = [err.message, ...err.hints].join('\n');
    expect(err.exitCode).toBe(2);
    if (held) {
      expect(err.message).toBe(`Cannot read --csv tomorrow.csv: another program has it open and is not sharing it (${code}).`);
      expect(text).toContain('Excel');
      expect(text).toContain('antivirus');
    } else {
      expect(err.message).toBe('Cannot read --csv tomorrow.csv: permission denied.');
      expect(text).not.toContain('Excel');
    }
  });

  it.each(['EBUSY', 'EPERM'])('%s: send --body-file, --template-file and --csv say who may hold it, and send nothing', async (code) => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    try {
      const env = sandboxEnv(sandbox.current);
      const before = sandbox.current.sb.db.messages.size;
      const held = join(dir, `held-${code}.txt`);
      const csvPath = join(dir, 'ok.csv');
      await writeFile(csvPath, 'phone,first_name\n(212) 555-0100,Ada\n');
      // They exist (stat works); opening them is what fails.
      await writeFile(held, 'Hi {first_name}');
      await writeFile(join(dir, `held-${code}.csv`), 'phone,first_name\n(212) 555-0100,Ada\n');
      const runs = [
        await msgctl(['send', '--to', '+15555550123', '--body-file', held], { env }),
        await msgctl(['send', '--csv', csvPath, '--template-file', held, '--dry-run'], { env }),
        await msgctl(['send', '--csv', join(dir, `held-${code}.csv`), '--template', 'Hi {first_name}', '--dry-run'], { env }),
      ];
      for (const r of runs) {
        expect(r.exitCode, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/another program has it open and is not sharing it/);
        expect(r.stderr).toContain('Excel keeps a file it has open locked');
      }
      expect(sandbox.current.sb.db.messages.size).toBe(before);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });
});

describe('UTF-16 with an odd number of bytes', () => {
  it('a body or template file is damaged UTF-16, not "not UTF-8"', () => {
    const bytes = oddUtf16('Hi Ada');
    expect(() => decodeText(bytes, '--body-file notice.txt')).toThrow(
      `--body-file notice.txt is damaged UTF-16 text: it starts with a UTF-16 byte-order mark, but its length (${bytes.length} bytes) is odd`,
    );
    // Half of a surrogate pair, an even length: damaged all the same.
    const halfPair = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Hi 😀', 'utf16le').subarray(0, -2)]);
    expect(() => decodeText(halfPair, 'stdin')).toThrow(/stdin is damaged UTF-16 text/);
  });

  it('a CSV file, and a CSV on stdin, are damaged UTF-16 too', async () => {
    const path = join(dir, 'odd.csv');
    await writeFile(path, oddUtf16('phone,first_name\r\n(212) 555-0100,Ada\r\n'));
    for (const source of [path, Readable.from([oddUtf16('phone,first_name\r\n(212) 555-0100,Ada\r\n')])]) {
      const err = await (async () => {
        const csv = await openCsv(source, { label: '--csv odd.csv' });
        for await (const _row of csv.rows) void _row;
      })().catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/--csv odd\.csv is damaged UTF-16 text/);
      expect((err as Error).message).not.toMatch(/UTF-8/);
    }
  });

  it('the built-in send refuses such a body file with exit 2 and sends nothing', async () => {
    const path = join(dir, 'odd-body.txt');
    await writeFile(path, oddUtf16('Your results are ready.'));
    const before = sandbox.current.sb.db.messages.size;
    const r = await msgctl(['send', '--to', '+15555550123', '--body-file', path], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is damaged UTF-16 text');
    expect(r.stderr).not.toContain('not UTF-8');
    expect(sandbox.current.sb.db.messages.size).toBe(before);
  });
});
