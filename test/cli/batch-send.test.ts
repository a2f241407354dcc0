/**
 * `msgctl send --csv` without faults: per-row outcomes, re-runs that send
 * nothing new, validation before the first send, dry runs, Ctrl-C.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv, startInProcess } from '../helpers/in-process.js';
import { reminderRows, TEMPLATE, writeReminderCsv } from '../fixtures/batch/reminders.js';

const sandbox = useSandbox();
const sb = () => sandbox.current.sb;
const dir = mkdtempSync(join(tmpdir(), 'msgctl-batch-'));
const posts = () => sandbox.current.testing.requests().filter((q) => q.method === 'POST' && q.path === '/patient-messages');
const withBody = (body: string) => sb().db.messages.filter((m) => m.body === body);
/** The stored messages by body, read once: a row-by-row withBody() reads every message again for each row. */
function messagesByBody() {
  const byBody = new Map<string, ReturnType<typeof withBody>>();
  for (const m of sb().db.messages.values()) byBody.set(m.body, [...(byBody.get(m.body) ?? []), m]);
  return (body: string) => byBody.get(body) ?? [];
}
const messagesTagged = (tag: string) => sb().db.messages.filter((m) => m.body.includes(`(ref ${tag}-`));

function csvFile(name: string, count: number, options: { invalidRow?: boolean } = {}) {
  const rows = reminderRows(count, { tag: name, ...options });
  const path = join(dir, `${name}.csv`);
  writeReminderCsv(path, rows);
  return { path, rows };
}

describe('msgctl send --csv', () => {
  it('sends 260 rows once, reports every row, and a second run sends nothing new', { timeout: 120_000 }, async () => {
    const { path, rows } = csvFile('big', 260, { invalidRow: true });
    const env = sandboxEnv(sandbox.current);
    const postsBefore = posts().length;
    const r = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--json'], { env, timeout: 90_000 });
    expect(r.exitCode, r.stderr).toBe(10);

    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.row).sort((a, b) => a - b)).toEqual(rows.map((row) => row.row));
    const byRow = new Map(lines.map((l) => [l.row, l]));
    const storedWith = messagesByBody();
    for (const row of rows) {
      const line = byRow.get(row.row)!;
      const stored = storedWith(row.body);
      if (row.kind === 'new') {
        expect(line).toMatchObject({ outcome: 'sent', message_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
        expect(stored.map((m) => m.id)).toEqual([line.message_id]);
      } else if (row.kind === 'opted_out') {
        expect(line).toMatchObject({ outcome: 'skipped', code: 'patient_opted_out', request_id: expect.any(String) });
        expect(stored).toHaveLength(0);
      } else {
        expect(line).toMatchObject({ outcome: 'invalid', code: 'invalid_row' });
        expect(line.detail).toMatch(/recipient "555-0000"/);
        expect(stored).toHaveLength(0);
      }
    }
    const sentRows = rows.filter((row) => row.kind === 'new').length;
    const optedOut = rows.filter((row) => row.kind === 'opted_out').length;
    expect(posts().length - postsBefore).toBe(sentRows + optedOut);
    expect(r.stderr).toMatch(/^row 15: invalid: recipient "555-0000"/m);
    expect(r.stderr).toContain(`Done: ${sentRows} sent, ${optedOut} skipped, 0 failed, 1 invalid, 0 already done (260 rows of ${path}).`);
    expect(r.stderr).toMatch(new RegExp(`skipped patient_opted_out: ${optedOut}\\b`));
    // Default journal: under the state directory, named after the batch.
    const journals = readdirSync(join(env.XDG_STATE_HOME!, 'msgctl', 'journals')).filter((f) => f.endsWith('.jsonl'));
    expect(journals).toHaveLength(1);
    expect(r.stderr).toContain(journals[0]!);

    const messageCount = sb().db.messages.size;
    const postsAfterFirst = posts().length;
    const again = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--json'], { env, timeout: 60_000 });
    expect(again.exitCode, again.stderr).toBe(10);
    expect(sb().db.messages.size).toBe(messageCount);
    expect(posts().length).toBe(postsAfterFirst);
    expect(again.stderr).toContain(`All ${sentRows + optedOut} valid rows of ${path} were already done in an earlier run; nothing was sent`);
    const replayed = jsonLines(again.stdout);
    expect(replayed).toHaveLength(260);
    expect(replayed.filter((l) => l.already_done).length).toBe(sentRows + optedOut);
    // What needs a look still says why: the earlier run's code, from the journal.
    const optedOutRows = new Set(rows.filter((row) => row.kind === 'opted_out').map((row) => row.row));
    for (const line of replayed.filter((l) => optedOutRows.has(l.row))) expect(line).toMatchObject({ outcome: 'skipped', code: 'patient_opted_out', already_done: true });
    for (const line of replayed.filter((l) => l.outcome === 'sent')) expect(line.code).toBeUndefined();
    const tsv = await msgctl(['send', '--csv', path, '--template', TEMPLATE], { env, timeout: 60_000 });
    const skippedLine = tsv.stdout.split('\n').find((l) => l.split('\t')[1] === 'skipped')!;
    expect(skippedLine.split('\t').slice(1, 4)).toEqual(['skipped', 'patient_opted_out', 'earlier']);
  });

  it('exits 0 when every row was sent, and 0 again on a re-run that finds them all done', async () => {
    const { path, rows } = csvFile('clean', 6);
    expect(rows.every((row) => row.kind === 'new')).toBe(true);
    const env = sandboxEnv(sandbox.current);
    const r = await msgctl(['send', '--csv', path, '--template', TEMPLATE], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    // Piped: one tab-separated line per row.
    const cells = r.stdout.trim().split('\n').map((l) => l.split('\t').slice(0, 2));
    expect(cells.sort()).toEqual(rows.map((row) => [String(row.row), 'sent']).sort());
    const storedWith = messagesByBody();
    for (const row of rows) expect(storedWith(row.body)).toHaveLength(1);
    const again = await msgctl(['send', '--csv', path, '--template', TEMPLATE], { env });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toMatch(/All 6 rows of .* were already done in an earlier run; nothing was sent/);
    // On a terminal, a re-run with nothing left to send shows no progress bar (it used to stall at "0/1 rows").
    const onTerminal = await msgctl(['send', '--csv', path, '--template', TEMPLATE], { env, tty: true });
    expect(onTerminal.exitCode).toBe(0);
    expect(onTerminal.stderr).not.toMatch(/rows \| ETA/);
    expect(onTerminal.stderr).toMatch(/already done in an earlier run/);
    // Piped re-run: the outcome stays one token (awk '$2=="sent"'), the earlier run is its own column.
    const replayed = again.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(replayed.map((c) => c.slice(1, 2).concat(c.slice(3, 4)))).toEqual(rows.map(() => ['sent', 'earlier']));
    expect(r.stdout.trim().split('\n').every((l) => l.split('\t')[3] === 'now')).toBe(true);
  });

  it('refuses a placeholder without a column before sending anything (exit 2)', async () => {
    const { path } = csvFile('badtemplate', 5);
    const before = posts().length;
    const r = await msgctl(['send', '--csv', path, '--template', 'Hi {first_name}, room {room}'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/\{room\} has no such column/);
    expect(r.stderr).toMatch(/Columns in the file: "First Name", "Mobile Phone", "Time", "Ref"/);
    expect(posts().length).toBe(before);
  });

  it('--strict stops the whole batch on an invalid row, listing it, and sends nothing (exit 2)', async () => {
    const { path } = csvFile('strict', 20, { invalidRow: true });
    const before = posts().length;
    const r = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--strict'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^row 15: invalid: recipient "555-0000"/m);
    expect(r.stderr).toMatch(/1 of 20 rows are invalid .* with --strict nothing was sent/);
    expect(posts().length).toBe(before);
    expect(messagesTagged('strict')).toHaveLength(0);
  });

  it('a batch another run holds is refused before anything is sent, with --json as code batch_locked', async () => {
    const { path } = csvFile('locked', 3);
    const journal = join(dir, 'locked.journal');
    // A lock just taken by a live process that started earlier (the one that started the tests;
    // not this one: msgctl runs in-process here, and its own PID in a lock is a leftover of its own).
    writeFileSync(`${journal}.lock`, String(process.ppid), { mode: 0o600 });
    const before = posts().length;
    const r = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--journal', journal, '--json'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'batch_locked', detail: expect.stringMatching(/^Another msgctl \(pid \d+/) as unknown });
    expect(r.stdout).toBe('');
    expect(posts().length).toBe(before);
  });

  it('--strict --json lists the invalid rows on stdout as a run without --strict does, and the problem on stderr', async () => {
    const { path } = csvFile('strict-json', 20, { invalidRow: true });
    const before = posts().length;
    const r = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--strict', '--json'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(jsonLines(r.stdout)).toEqual([
      { row: 15, outcome: 'invalid', code: 'invalid_row', detail: expect.stringMatching(/^recipient "555-0000" is neither/) as unknown },
    ]);
    expect(r.stderr).toMatch(/"code":"usage_error".*1 of 20 rows are invalid/);
    expect(posts().length).toBe(before);
    // Piped without --json: the same row as a TSV line (row, outcome, code, run, detail).
    const piped = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--strict'], { env: sandboxEnv(sandbox.current) });
    expect(piped.stdout).toMatch(/^15\tinvalid\tinvalid_row\tnow\trecipient "555-0000" is neither[^\n]*\n$/);
    // A dry run's stdout is the messages it would send: with --strict and an invalid row, none.
    const dry = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--strict', '--dry-run', '--json'], { env: sandboxEnv(sandbox.current) });
    expect(dry.exitCode).toBe(2);
    expect(dry.stdout).toBe('');
  });

  it('reports an empty placeholder value per row, and sends the rest', async () => {
    const path = join(dir, 'empty-value.csv');
    writeFileSync(path, 'First Name,Mobile Phone,Time,Ref\nEve,555-555-0171,,ev-1\nFay,555-555-0172,10:00,fy-1\n');
    const r = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--json'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(10);
    expect(jsonLines(r.stdout).map((l) => [l.row, l.outcome])).toEqual([[2, 'invalid'], [3, 'sent']]);
    expect(r.stderr).toContain('row 2: invalid: {time} is empty (column "Time")');
    expect(withBody('Reminder for Fay: your visit is at 10:00 (ref fy-1)')).toHaveLength(1);
  });

  it('a second phone column is said to be unused, as imports create says it, not passed over in silence; --to-column picks it', async () => {
    const path = join(dir, 'two-phones.csv');
    writeFileSync(path, 'first,last,phone,Phone\nAda,B,555-555-0123,555-555-0124\n');
    const env = sandboxEnv(sandbox.current);
    const dry = await msgctl(['send', '--csv', path, '--template', 'Hi {first}', '--dry-run', '--json', '--channel', 'sms'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('note: "Phone" is not used: "phone" is used for phone (to send to "Phone" instead: --to-column Phone)');
    expect(jsonLines(dry.stdout)[0]).toMatchObject({ to: '+15555550123' });
    const chosen = await msgctl(['send', '--csv', path, '--template', 'Hi {first}', '--dry-run', '--json', '--channel', 'sms', '--to-column', 'Phone'], { env });
    expect(chosen.stderr).not.toContain('is not used');
    expect(jsonLines(chosen.stdout)[0]).toMatchObject({ to: '+15555550124' });
  });

  it('--dry-run prints each message with the key a real run sends, and sends nothing', async () => {
    const { path, rows } = csvFile('dry', 8);
    const env = sandboxEnv(sandbox.current);
    const before = posts().length;
    const dry = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--dry-run', '--json', '--channel', 'sms'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(posts().length).toBe(before);
    const planned = jsonLines(dry.stdout);
    expect(planned[0]).toEqual({
      row: 2, to: '+15555550101', body: rows[0]!.body, channel: 'sms', from: null,
      idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(planned).toHaveLength(8);
    expect(dry.stderr).toMatch(/Dry run: 8 rows would be sent, 0 already done, 0 invalid; nothing was sent/);

    // Piped without --json: tab-separated (row, to, channel, from, key, run, body), as every piped output.
    const piped = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--dry-run', '--channel', 'sms'], { env });
    expect(piped.stdout.split('\n')[0]).toBe(['2', '+15555550101', 'sms', '', planned[0]!.idempotency_key, 'now', rows[0]!.body].join('\t'));
    expect(piped.stdout.trim().split('\n')).toHaveLength(8);

    const real = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--channel', 'sms'], { env });
    expect(real.exitCode).toBe(10); // row 9 is the opted-out patient
    expect(posts().slice(before).map((q) => q.idempotencyKey).sort()).toEqual(planned.map((p) => p.idempotency_key).sort());
    // A dry run before a re-run: the rows the journal has are marked `earlier` in the run column.
    const again = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--dry-run', '--channel', 'sms'], { env });
    expect(again.stdout.split('\n')[0]!.split('\t')[5]).toBe('earlier');
  });

  it('--dry-run with invalid rows exits 2 (local validation, nothing sent), as imports create --dry-run does', async () => {
    const { path } = csvFile('dry-invalid', 20, { invalidRow: true });
    const env = sandboxEnv(sandbox.current);
    const before = posts().length;
    const dry = await msgctl(['send', '--csv', path, '--template', TEMPLATE, '--dry-run', '--json'], { env });
    expect(dry.exitCode, dry.stderr).toBe(2);
    expect(dry.stderr).toMatch(/^row 15: invalid: /m);
    expect(dry.stderr).toMatch(/Dry run: 19 rows would be sent, 0 already done, 1 invalid; nothing was sent/);
    expect(posts().length).toBe(before);
  });

  it('an EHR "Patient ID" holding MRNs is read as the MRN (as imports and recipients add do): the rows go to the phone column', async () => {
    const path = join(dir, 'roster-ids.csv');
    writeFileSync(path, ['Patient ID,First Name,Mobile Phone', 'A-7001,Una,555-555-0171', 'A-7002,Vic,555-555-0172'].join('\n') + '\n');
    const env = sandboxEnv(sandbox.current);
    const r = await msgctl(['send', '--csv', path, '--template', 'Hello {first_name} (roster-ids)', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout).map((l) => l.outcome)).toEqual(['sent', 'sent']);
    const sent = sb().db.messages.filter((m) => m.body.endsWith('(roster-ids)'));
    expect(sent.map((m) => m.body).sort()).toEqual(['Hello Una (roster-ids)', 'Hello Vic (roster-ids)']);
  });

  it('a recipient column that fails for every row is a usage error that suggests --to-column', async () => {
    const path = join(dir, 'mrn-only.csv');
    writeFileSync(path, ['Patient ID,First Name,Home Number', 'A-7001,Una,555-555-0171', 'A-7002,Vic,555-555-0172'].join('\n') + '\n');
    const env = sandboxEnv(sandbox.current);
    const before = posts().length;
    for (const extra of [[], ['--dry-run']]) {
      const r = await msgctl(['send', '--csv', path, '--template', 'Hi {first_name}', ...extra], { env });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`No row of ${path} has a usable recipient in column "Patient ID" (read as patient ids); nothing was sent.`);
      expect(r.stderr).toMatch(/--to-column "Mobile Phone"/);
      expect(r.stderr).toContain('Columns in the file: "First Name", "Home Number".');
    }
    expect(posts().length).toBe(before);
    const named = await msgctl(['send', '--csv', path, '--template', 'Hi {first_name} (home)', '--to-column', 'Home Number', '--dry-run'], { env });
    expect(named.exitCode, named.stderr).toBe(0);
  });

  it('a changed row gets a new key; the template or --channel make a new batch', async () => {
    const { path } = csvFile('keys', 3);
    const env = sandboxEnv(sandbox.current);
    const keysOf = async (file: string, extra: string[] = []) =>
      jsonLines((await msgctl(['send', '--csv', file, '--template', TEMPLATE, '--dry-run', '--json', ...extra], { env })).stdout)
        .map((l) => l.idempotency_key);
    const base = await keysOf(path);
    expect(await keysOf(path)).toEqual(base);
    expect(await keysOf(path, ['--channel', 'sms'])).not.toContain(base[0]);
    const edited = join(dir, 'keys-edited.csv');
    writeFileSync(edited, readFileSync(path, 'utf8').replace('Pat1,', 'Patty1,'));
    const editedKeys = await keysOf(edited);
    expect(editedKeys[1]).not.toBe(base[1]);
  });

  it('rows the service answered but the journal lost (crash before fsync, torn last line) are replayed, not sent twice', async () => {
    const { path, rows } = csvFile('lost', 6);
    const journal = join(dir, 'lost.journal');
    const env = sandboxEnv(sandbox.current);
    const args = ['send', '--csv', path, '--template', TEMPLATE, '--journal', journal, '--json'];
    const first = await msgctl(args, { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const firstIds = new Map(jsonLines(first.stdout).map((l) => [l.row, l.message_id]));

    // Keep the header and two entries; cut the third in half, as a crash mid-write would.
    const lines = readFileSync(journal, 'utf8').split('\n');
    writeFileSync(journal, lines.slice(0, 3).join('\n') + '\n' + lines[3]!.slice(0, 20));
    const kept = new Set(lines.slice(1, 3).map((l) => JSON.parse(l).row));

    const before = posts().length;
    const again = await msgctl(args, { env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/ignored an incomplete last line/);
    expect(again.stderr).toMatch(/Done: 4 sent, 0 skipped, 0 failed, 0 invalid, 2 already done/);
    const resent = posts().slice(before);
    expect(resent).toHaveLength(4);
    for (const line of jsonLines(again.stdout)) {
      if (kept.has(line.row)) expect(line.already_done).toBe(true);
      else expect(line.message_id).toBe(firstIds.get(line.row)); // the service replayed the first answer
    }
    const storedWith = messagesByBody();
    for (const row of rows) expect(storedWith(row.body)).toHaveLength(1);
    expect(readFileSync(journal, 'utf8').split('\n').slice(1, -1).map((l) => JSON.parse(l).row).sort()).toEqual(
      rows.map((r) => r.row).sort(),
    );
  });

  it.each([
    ['SIGINT', 130, 'ctrlc'],
    ['SIGTERM', 143, 'sigterm'],
  ] as const)('%s lets the request in flight finish, journals it, exits %i, and a re-run sends the rest', { timeout: 60_000 }, async (signal, code, name) => {
    const { path, rows } = csvFile(name, 12);
    const journal = join(dir, `${name}.journal`);
    const env = sandboxEnv(sandbox.current);
    const args = ['send', '--csv', path, '--template', TEMPLATE, '--journal', journal, '--concurrency', '1', '--json'];
    const before = posts().length;
    // The first send is rate limited for 1 s: Ctrl-C arrives while the batch waits on it.
    sandbox.current.testing.injectFaults({ status: 429, retryAfter: 1, method: 'POST', path: '/patient-messages' });
    // In this process, the signal through the binary's own handler; test/e2e/batch-thread.test.ts
    // sends real signals to a real process.
    const child = startInProcess(args, { env });
    for (let waited = 0; posts().length === before; waited += 20) {
      if (waited > 20_000) throw new Error('the batch never sent');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const stopped = { exitCode: await child.stop(signal), stdout: child.stdout, stderr: child.stderr };
    expect(stopped.exitCode, String(stopped.stderr)).toBe(code);
    expect(String(stopped.stderr)).toMatch(/Interrupted: 1 sent, .* 11 not sent yet/);
    expect(String(stopped.stderr)).toMatch(/run the same command again/);
    expect(jsonLines(String(stopped.stdout)).map((l) => [l.row, l.outcome])).toEqual([[2, 'sent']]);
    expect(messagesTagged(name)).toHaveLength(1);
    expect(existsSync(`${journal}.lock`)).toBe(false);

    const again = await msgctl(args, { env });
    expect(again.exitCode, again.stderr).toBe(10);
    const storedWith = messagesByBody();
    for (const row of rows) expect(storedWith(row.body)).toHaveLength(row.kind === 'new' ? 1 : 0);
    expect(again.stderr).toMatch(/Done: 10 sent, 1 skipped, 0 failed, 0 invalid, 1 already done/);
  });
});
