/**
 * Text inputs as Windows and macOS tools write them (test/fixtures/text), read
 * by msgctl against the sandbox: one decoder for bodies, stdin,
 * templates, `api --input` and CSVs; and inputs that are not regular files
 * (FIFO, device, directory) refused at once instead of blocking or reading forever.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { msgctl as spawned } from '../helpers/cli.js';
// Decoding runs in this process; whether a pipe or a device can block a real process is asked of the built binary.
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current);
const db = () => sandbox.current.sb.db;
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/text/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'msgctl-text-'));
const TO = '+15555550123';

/** What every body fixture says, once decoded. */
const BODY = 'Hi Ada,\nyour visit at Café Lumière is on Monday.\nReply STOP to opt out.';

const sentBody = (stdout: string) => db().messages.get(jsonLines(stdout)[0].message.id)!.body;

describe('message bodies from Windows files', () => {
  it.each(['body-utf8-bom-crlf.txt', 'body-utf16le-bom.txt', 'body-utf16be-bom.txt'])(
    '--body-file %s sends the text without BOM or CR',
    async (name) => {
      const r = await msgctl(['send', '--to', TO, '--body-file', fixture(name), '--json'], { env: env() });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(sentBody(r.stdout)).toBe(BODY);
    },
  );

  it('reads the same bytes the same way on stdin (UTF-16LE piped from PowerShell 5.1)', async () => {
    const r = await msgctl(['send', '--to', TO, '--json'], { env: env(), input: readFileSync(fixture('body-utf16le-bom.txt')) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sentBody(r.stdout)).toBe(BODY);
  });

  it('refuses Windows-1252 text (file or stdin) with the save-as-UTF-8 hint, and sends nothing', async () => {
    const before = db().messages.size;
    const file = await msgctl(['send', '--to', TO, '--body-file', fixture('body-cp1252.txt')], { env: env() });
    const piped = await msgctl(['send', '--to', TO], { env: env(), input: readFileSync(fixture('body-cp1252.txt')) });
    for (const r of [file, piped]) {
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/is not UTF-8 text/);
      expect(r.stderr).toMatch(/Save the file as UTF-8/);
      expect(r.stderr).not.toContain('\uFFFD');
    }
    expect(db().messages.size).toBe(before);
  });
});

describe('msgctl api --input', () => {
  it.each(['input-utf8-bom-crlf.json', 'input-utf16le-bom.json'])('reads %s as JSON', async (name) => {
    const r = await msgctl(['api', 'POST', '/patients', '--input', fixture(name)], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ first_name: 'Zoë' });
  });

  // Relative to where the command runs, as a shell user means it: a process of its own (a worker thread cannot change folder).
  it('reads a relative -F field=@FILE from the working directory', async () => {
    const folder = mkdtempSync(join(dir, 'cwd-'));
    writeFileSync(join(folder, 'body.txt'), 'Your results are ready (relative)');
    const r = await spawned(['api', 'POST', '/patient-messages', '-f', `to[phone]=${TO}`, '-F', 'body=@body.txt', '-f', 'channel=sms'], { env: env(), cwd: folder });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(sentBody(r.stdout)).toBe('Your results are ready (relative)');
  });
});

describe('send --csv: a file saved again with a BOM or CRLF is the same batch', () => {
  const rows = ['First Name,Mobile Phone,Time', 'Ines,555-555-0131,9:00', 'Jon,555-555-0132,9:30'];

  it('template and CSV in Notepad form (BOM, CRLF) are the batch already sent from LF files', async () => {
    const lf = join(dir, 'visits-lf.csv');
    const crlf = join(dir, 'visits-crlf.csv');
    writeFileSync(lf, rows.join('\n') + '\n');
    writeFileSync(crlf, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rows.join('\r\n') + '\r\n')]));
    const e = env(); // one state directory (journals) for both runs
    const first = await msgctl(['send', '--csv', lf, '--template-file', fixture('template-lf.txt'), '--json'], { env: e });
    expect(first.exitCode, first.stderr).toBe(0);
    const sent = jsonLines(first.stdout).map((l) => db().messages.get(l.message_id)!.body);
    expect(sent).toEqual([
      'Hi Ines, see you at 9:00.\nCall us if you need to move it.',
      'Hi Jon, see you at 9:30.\nCall us if you need to move it.',
    ]);

    const again = await msgctl(['send', '--csv', crlf, '--template-file', fixture('template-utf8-bom-crlf.txt'), '--json'], {
      env: e,
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already done in an earlier run; nothing was sent/);
  });
});

describe('inputs that are not regular files', () => {
  const fifo = join(dir, 'body.fifo');
  if (process.platform !== 'win32') execFileSync('mkfifo', [fifo]);

  it.skipIf(process.platform === 'win32').each([
    ['send --body-file FIFO', ['send', '--to', TO, '--body-file', fifo], /named pipe/],
    ['send --body-file /dev/zero', ['send', '--to', TO, '--body-file', '/dev/zero'], /a device/],
    ['send --body-file DIR', ['send', '--to', TO, '--body-file', dir], /a directory/],
    ['send --csv FIFO', ['send', '--csv', fifo, '--template', 'Hi {first_name}'], /named pipe/],
    ['send --template-file FIFO', ['send', '--csv', fixture('template-lf.txt'), '--template-file', fifo], /named pipe/],
    ['api --input FIFO', ['api', 'POST', '/patients', '--input', fifo], /named pipe/],
    ['campaigns create --body-file /dev/zero', ['campaigns', 'create', '--name', 'x', '--body-file', '/dev/zero'], /a device/],
  ])('%s exits 2 at once, naming what it is', async (_name, args, what) => {
    // A command that waited on the pipe would be killed at the timeout, not exit 2 on its own.
    const r = await spawned(args as string[], { env: env(), timeout: 10_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(what as RegExp);
    expect(r.stderr).toMatch(/regular file, or - to read stdin/);
  });

  it('a huge regular body file is refused from its size, without reading it', async () => {
    const big = join(dir, 'big.txt');
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024, 'a'));
    const r = await msgctl(['send', '--to', TO, '--body-file', big], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/larger than 64 KiB; a message body is at most 1,600 characters/);
  });

  it('endless stdin stops at the limit (exit 2), instead of filling memory', async () => {
    const r = await msgctl(['send', '--to', TO], { env: env(), input: 'x'.repeat(5 * 1024 * 1024) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/stdin is larger than 64 KiB/);
  });
});
