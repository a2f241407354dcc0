import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, expect, it } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv/read.js';

const ROWS = 100_000;
/** Wide enough that the file (~115 MB) would not fit the memory budget if it were buffered. */
const NOTE = 'x'.repeat(1100);
const MEMORY_BUDGET = 100 * 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'msgctl-csv-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function writeLargeCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('First Name,Last Name,Mobile Phone,Notes\n');
  for (let i = 1; i <= ROWS; i += 1) {
    const line = `First${i},Last${i},555-555-${String(i % 10_000).padStart(4, '0')},"${NOTE}\n${i}"\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

it(`streams ${ROWS} rows with bounded memory`, { timeout: 60_000 }, async () => {
  const path = join(dir, 'large.csv');
  await writeLargeCsv(path);
  expect(statSync(path).size).toBeGreaterThan(MEMORY_BUDGET);

  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let count = 0;
  let last;
  for await (const row of readCsvRecords(path)) {
    count += 1;
    last = row;
    if (count % 1000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }

  expect(count).toBe(ROWS);
  expect(last).toMatchObject({ rowNumber: ROWS, row: ROWS + 1, line: 2 * ROWS, record: { 'Last Name': `Last${ROWS}` } });
  expect(peak - baseline).toBeLessThan(MEMORY_BUDGET);
});
