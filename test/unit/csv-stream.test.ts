/**
 * A CSV larger than the memory budget is read row by row, never whole.
 * The reading runs in a process of its own (the CLI's reader, bundled by
 * esbuild): the process's resident memory is the measure, and no other test's
 * heap or thread may count in it.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, expect, it } from 'vitest';
import { build } from 'esbuild';
import { execa } from 'execa';

const ROWS = 42_000;
/** Wide enough that the file (~48 MB) is larger than the memory budget: a reader that buffers it fails. */
const NOTE = 'x'.repeat(1100);
/**
 * Above what reading row by row costs (the process's resident memory grows ~20-26 MB: V8's
 * code and heap, and the allocator's arenas of the threads that read the file, at 40,000 or
 * 100,000 rows alike) and below the file's size. The file is parsed character by character,
 * so its size is the test's time: a budget of 100 MB needed a 115 MB file (~30 s on two
 * loaded cores, past the minute under load once).
 */
const MEMORY_BUDGET = 40 * 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'msgctl-csv-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Reads the CSV named by its argument; prints the rows, the last one and the peak RSS over the start. */
const DRIVER = `
import { readCsvRecords } from ${JSON.stringify(join(import.meta.dirname, '../../src/cli/csv/read.ts'))};
const baseline = process.memoryUsage().rss;
let peak = baseline;
let count = 0;
let last;
for await (const row of readCsvRecords(process.argv[2])) {
  count += 1;
  last = row;
  if (count % 1000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
}
console.log(JSON.stringify({ count, last, growth: peak - baseline }));
`;

async function writeLargeCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('First Name,Last Name,Mobile Phone,Notes\n');
  // A thousand rows a write: a write per row cost seconds on a busy machine.
  let lines = '';
  for (let i = 1; i <= ROWS; i += 1) {
    lines += `First${i},Last${i},555-555-${String(i % 10_000).padStart(4, '0')},"${NOTE}\n${i}"\n`;
    if (i % 1000 === 0 || i === ROWS) {
      if (!out.write(lines)) await once(out, 'drain');
      lines = '';
    }
  }
  out.end();
  await once(out, 'finish');
}

it(`streams ${ROWS} rows with bounded memory`, { timeout: 60_000 }, async () => {
  const path = join(dir, 'large.csv');
  const driver = join(dir, 'read.mjs');
  await Promise.all([
    writeLargeCsv(path),
    build({ stdin: { contents: DRIVER, resolveDir: dir, loader: 'ts' }, bundle: true, platform: 'node', target: 'node22', format: 'esm', outfile: driver, logLevel: 'error' }),
  ]);
  expect(statSync(path).size).toBeGreaterThan(MEMORY_BUDGET);

  const r = await execa(process.execPath, [driver, path], { reject: false });
  expect(r.exitCode, r.stderr).toBe(0);
  const { count, last, growth } = JSON.parse(r.stdout) as { count: number; last: unknown; growth: number };
  expect(count).toBe(ROWS);
  expect(last).toMatchObject({ rowNumber: ROWS, row: ROWS + 1, line: 2 * ROWS, record: { 'Last Name': `Last${ROWS}` } });
  expect(growth).toBeLessThan(MEMORY_BUDGET);
});
