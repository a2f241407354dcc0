/**
 * `-o FILE` with two runs at once (overlapping cron jobs with the same -o): the second takes the
 * first's FILE.partial for a leftover of its own and makes a new one. The first must then neither
 * publish the second's output (perhaps cut off) under its own success nor delete it: it fails, and
 * FILE is what the second run wrote. (From a scripting audit: the first exited 0 with the second's
 * failed, incomplete output in FILE.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileOutput } from '../../src/cli/output/file-output.js';

const dir = mkdtempSync(join(tmpdir(), 'msgctl-file-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (out: FileOutput, text: string) => new Promise<void>((resolve, reject) => out.write(text, (err) => (err ? reject(err) : resolve())));

describe.skipIf(process.platform === 'win32')('-o FILE with two runs at once', () => {
  it('the run whose FILE.partial was replaced fails, and FILE is the other run\'s whole output', async () => {
    const target = join(dir, 'patients.jsonl');
    writeFileSync(target, 'before\n');
    const first = FileOutput.create(target);
    await write(first, 'first, part 1\n');
    const second = FileOutput.create(target);
    await write(second, 'second, all of it\n');
    await second.commit();
    expect(readFileSync(target, 'utf8')).toBe('second, all of it\n');
    await write(first, 'first, part 2\n');
    await expect(first.commit()).rejects.toThrow(/Another msgctl run writing .*patients\.jsonl replaced this run's/);
    expect(readFileSync(target, 'utf8')).toBe('second, all of it\n');
  });

  it('a run that fails leaves the other run\'s FILE.partial where it is', async () => {
    const target = join(dir, 'messages.jsonl');
    const first = FileOutput.create(target);
    const second = FileOutput.create(target);
    await write(second, 'second\n');
    await first.discard();
    expect(existsSync(`${target}.partial`)).toBe(true);
    await second.commit();
    expect(readFileSync(target, 'utf8')).toBe('second\n');
  });

  it('alone, a run still publishes its output and leaves no FILE.partial', async () => {
    const target = join(dir, 'alone.jsonl');
    const out = FileOutput.create(target);
    await write(out, 'only\n');
    await out.commit();
    expect(readFileSync(target, 'utf8')).toBe('only\n');
    expect(existsSync(`${target}.partial`)).toBe(false);
  });
});
