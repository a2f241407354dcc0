import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '../../src/cli/config/file-lock.js';

describe('withFileLock', () => {
  it('serialises read-modify-write: 20 concurrent increments all land', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-lock-'));
    const counter = join(dir, 'n');
    writeFileSync(counter, '0');
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(join(dir, 'n.lock'), async () => {
          const n = Number(await readFile(counter, 'utf8'));
          await new Promise((r) => setTimeout(r, 2));
          await writeFile(counter, String(n + 1));
        }),
      ),
    );
    expect(readFileSync(counter, 'utf8')).toBe('20');
    expect(existsSync(join(dir, 'n.lock'))).toBe(false);
  });

  it('takes over a lock whose owner is no longer running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-lock-'));
    // A pid far above any real one: no such process.
    writeFileSync(join(dir, 'x.lock'), '2147483646');
    expect(await withFileLock(join(dir, 'x.lock'), async () => 'ran', { waitMs: 2000 })).toBe('ran');
  });

  it('gives up after waitMs while a live process holds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-lock-'));
    writeFileSync(join(dir, 'y.lock'), String(process.pid));
    await expect(withFileLock(join(dir, 'y.lock'), async () => 'ran', { waitMs: 200 })).rejects.toThrow(/Another msgctl has held/);
  });
});
