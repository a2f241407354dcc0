/**
 * The operator's screen (issue 28), in-process against the sandbox: lists
 * say when they were cut, --json FIELDS / --jq / --template as gh has them
 * (checked before anything is sent), record views as label: value lines that
 * fit 80x24, one labelled time zone, colour by the conventions, and -o FILE.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withPageCap, useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';
import { ExitCode } from '../../src/cli/exit-codes.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current);
/** A terminal where colour is left to the conventions under test (the test env sets NO_COLOR). */
const colourEnv = (extra: Record<string, string | undefined> = {}): Record<string, string | undefined> => ({ ...env(), NO_COLOR: undefined, TERM: 'xterm-256color', ...extra });
let campaignId = '';

beforeAll(async () => {
  for (let i = 0; i < 3; i++) {
    const r = await msgctl(['patients', 'create', '--first-name', i === 0 ? 'Zoë' : `Pat${i}`, '--last-name', 'Screen', '--phone', `+1555555028${i}`], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
  }
  const c = await msgctl(['campaigns', 'create', '--name', 'Flu shots 2026', '--body', 'Hi, flu shots are available at Riverside this month. Reply to book.', '--interval', '2', '--json'], { env: env() });
  expect(c.exitCode, c.stderr).toBe(0);
  campaignId = JSON.parse(c.stdout).id;
  const patients = jsonLines((await msgctl(['patients', 'list', '--json'], { env: env() })).stdout);
  const add = await msgctl(['campaigns', 'recipients', 'add', campaignId, ...patients.slice(0, 3).flatMap((p) => ['--patient', p.id])], { env: env() });
  expect(add.exitCode, add.stderr).toBe(0);
});

describe('a list cut at --limit says so, on a terminal only', () => {
  it('names --limit and --all on stderr; piped and --json output say nothing', async () => {
    const tty = await msgctl(['patients', 'list', '--limit', '2'], { env: env(), tty: true, columns: 120 });
    expect(tty.exitCode).toBe(0);
    expect(tty.stderr).toContain('Showing the first 2 patients; there are more. See more with --limit N, or all with --all.');
    expect(tty.stdout).not.toContain('Showing');
    // An 80-column window gets the hint on a line of its own, not wrapped mid-sentence.
    const narrow = await msgctl(['patients', 'list', '--limit', '2'], { env: env(), tty: true, columns: 80 });
    expect(narrow.stderr).toContain('Showing the first 2 patients; there are more.\nSee more with --limit N, or all with --all.\n');
    for (const line of narrow.stderr.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    const one = await msgctl(['patients', 'list', '--limit', '1'], { env: env(), tty: true, columns: 120 });
    expect(one.stderr).toContain('Showing the first of the patients; there are more.');
    const all = await msgctl(['patients', 'list', '--limit', '100'], { env: env(), tty: true, columns: 120 });
    expect(all.stderr).not.toContain('Showing');
    const piped = await msgctl(['patients', 'list', '--limit', '2'], { env: env() });
    expect(piped.stderr).toBe('');
    const json = await msgctl(['patients', 'list', '--limit', '2', '--json'], { env: env() });
    expect(json.stderr).toBe('');
    expect(jsonLines(json.stdout)).toHaveLength(2);
  });

  it('gives the count where the service has one (a campaign\'s recipients)', async () => {
    const r = await msgctl(['campaigns', 'recipients', 'list', campaignId, '--limit', '1'], { env: env(), tty: true, columns: 120 });
    expect(r.stderr).toContain('Showing 1 of 3 recipients. See more with --limit N, or all with --all.');
  });

  it('says nothing more than "no patients" for a list of 0 rows', async () => {
    const r = await msgctl(['patients', 'list', '--mrn', 'NOBODY-0'], { env: env(), tty: true, columns: 80 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('No patients found.\n');
  });
});

describe('--json FIELDS, --jq and --template', () => {
  it('--json alone keeps JSON Lines; --json id,first_name prints only those keys, in that order', async () => {
    const whole = jsonLines((await msgctl(['patients', 'list', '--limit', '1', '--json'], { env: env() })).stdout);
    expect(Object.keys(whole[0])).toContain('phone');
    const r = await msgctl(['patients', 'list', '--limit', '2', '--json', 'first_name,id'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    for (const line of jsonLines(r.stdout)) expect(Object.keys(line)).toEqual(['first_name', 'id']);
    // Before the command word, --json takes no value: the word is the command.
    const before = await msgctl(['--json', 'patients', 'list', '--limit', '1'], { env: env() });
    expect(Object.keys(jsonLines(before.stdout)[0])).toContain('phone');
  });

  it('an unknown field is exit 2 naming the available ones, and nothing is sent', async () => {
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['patients', 'list', '--json', 'id,nmae'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown field \\"nmae\\"');
    expect(r.stderr).toContain('first_name, last_name');
    expect(sandbox.current.testing.requests().length).toBe(before);
  });

  it('a word after --json that is not a field list, left as one argument too many, is named as such', async () => {
    const r = await msgctl(['patients', 'list', '--json', 'First_Name'], { env: env() });
    expect(r.exitCode).toBe(2);
    const [problem] = jsonLines(r.stderr);
    expect(problem.code).toBe('usage_error');
    expect(problem.detail).toContain('too many arguments');
    expect(problem.detail).toContain('"First_Name" after --json was read as an argument: field lists are lower-case names and commas, as --json first_name');
    // What it suggests works.
    expect((await msgctl(['patients', 'list', '--json', 'first_name'], { env: env() })).exitCode).toBe(0);
    const nested = await msgctl(['messages', 'list', '--after', '7d', '--json', 'conversation.title'], { env: env() });
    expect(jsonLines(nested.stderr)[0].detail).toContain("for a nested one use --jq '.conversation.title'");
    // Another surplus argument gets no such note, nor does a --json before the command word.
    const other = await msgctl(['patients', 'list', 'extra'], { env: env() });
    expect(other.stderr).toContain('too many arguments');
    expect(other.stderr).not.toContain('after --json');
    const before = await msgctl(['--json', 'patients', 'list', 'extra'], { env: env() });
    expect(before.exitCode).toBe(2);
    expect(before.stderr).not.toContain('after --json');
  });

  it('--jq runs jq itself on each record; strings print raw', async () => {
    const r = await msgctl(['patients', 'list', '--all', '--jq', 'select(.first_name == "Zoë") | .first_name + " " + .last_name'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('Zoë Screen\n');
    const obj = await msgctl(['org', '--jq', '{n: .name}'], { env: env() });
    expect(obj.stdout).toBe('{"n":"Riverside Family Clinic"}\n');
    const api = await msgctl(['api', 'GET', '/organization', '--jq', '.name'], { env: env() });
    expect(api.stdout).toBe('Riverside Family Clinic\n');
  });

  it('--jq output is jq\'s byte for byte: whitespace at the ends of each page kept, a comment at the end allowed', async () => {
    const all = jsonLines((await msgctl(['patients', 'list', '--all', '--json', 'id'], { env: env() })).stdout);
    expect(all.length).toBeGreaterThan(4);
    // Pages of 2: every page's first and last line are where jq-wasm's trim cut.
    const tsv = await withPageCap(sandbox.current, 2, () => msgctl(['patients', 'list', '--all', '--jq', '[.id, null] | @tsv # id, then an empty field'], { env: env() }));
    expect(tsv.exitCode, tsv.stderr).toBe(0);
    expect(tsv.stdout).toBe(all.map((p) => `${p.id}\t\n`).join(''));
    // A comment ending in a backslash (jq carries it onto the next line) still works.
    expect((await msgctl(['org', '--jq', '.name # the name \\'], { env: env() })).stdout).toBe('Riverside Family Clinic\n');
    const padded = await msgctl(['org', '--jq', '"  " + .name + "  "'], { env: env() });
    expect(padded.stdout).toBe('  Riverside Family Clinic  \n');
    const nothing = await msgctl(['patients', 'list', '--jq', 'empty'], { env: env() });
    expect(nothing.exitCode, nothing.stderr).toBe(0);
    expect(nothing.stdout).toBe('');
  });

  it('a jq program that stops on an error is exit 1, for a single record as for a list', async () => {
    const one = await msgctl(['org', '--jq', 'error("stop here")'], { env: env() });
    expect(one.exitCode).toBe(1);
    expect(one.stderr).toContain('stop here');
    expect(one.stderr).toContain('jq failed on one record, whose output is missing (first: jq: error (at record 1): stop here).');
    const list = await msgctl(['patients', 'list', '--jq', 'error("stop here")'], { env: env() });
    expect(list.exitCode).toBe(1);
    // With --json, stderr is problem lines only: one, naming jq's message.
    const json = await msgctl(['patients', 'list', '--json', '--jq', 'error("stop here")'], { env: env() });
    expect(json.exitCode).toBe(1);
    const lines = json.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ code: 'jq_error', detail: expect.stringContaining('stop here') as unknown });
  });


  it('jq goes on after a record it fails on; the first 5 messages are shown, the end says how many', async () => {
    const all = jsonLines((await msgctl(['patients', 'list', '--all', '--json', 'id'], { env: env() })).stdout);
    expect(all.length).toBeGreaterThan(6);
    const r = await withPageCap(sandbox.current, 2, () => msgctl(['patients', 'list', '--all', '--jq', 'if .id == "' + all[1]!.id + '" then .id else error("no \\(.id)") end'], { env: env() }));
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe(`${all[1]!.id}\n`);
    const messages = r.stderr.split('\n').filter((line) => line.startsWith('jq: error'));
    expect(messages).toEqual([1, 3, 4, 5, 6].map((n) => `jq: error (at record ${n}): no ${all[n - 1]!.id}`));
    expect(r.stderr).toContain(`error: jq failed on ${all.length - 1} records (the first 5 shown), whose output is missing (first: jq: error (at record 1): no ${all[0]!.id}).`);
  });

  it('records jq failed on are still said when another error ends the list (first jq, then the error)', async () => {
    // Page 1 (2 records, both failed by jq) is answered; page 2 meets a 503, not retried.
    const failedList = (json: string[]) =>
      withPageCap(sandbox.current, 2, () => {
        sandbox.current.testing.injectFaults({ holdMs: 1, path: '/patients' }, { status: 503, path: '/patients' });
        return msgctl(['patients', 'list', '--all', '--retries', '0', ...json, '--jq', 'error("no \\(.id)")'], { env: env() });
      });
    const json = await failedList(['--json']);
    expect(json.exitCode, json.stderr).toBe(ExitCode.Unavailable);
    expect(json.stdout).toBe('');
    const problems = json.stderr.trim().split('\n').map((line) => JSON.parse(line) as { code: string; detail: string });
    expect(problems.map((p) => p.code)).toEqual(['jq_error', 'service_unavailable']);
    expect(problems[0]!.detail).toMatch(/^jq failed on 2 records, whose output is missing \(first: jq: error \(at record 1\): no /);
    const text = await failedList([]);
    expect(text.exitCode).toBe(ExitCode.Unavailable);
    const errors = text.stderr.split('\n').filter((line) => line.startsWith('error: '));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^error: jq failed on 2 records, whose output is missing/);
    expect(errors[1]).toMatch(/service_unavailable, HTTP 503/);
  });

  it("what jq prints on stderr itself (debug) fails nothing; a message over two lines is one failure", async () => {
    const debug = await msgctl(['patients', 'list', '--limit', '2', '--jq', '.first_name | debug'], { env: env() });
    expect(debug.exitCode, debug.stderr).toBe(0);
    expect(debug.stderr.split('\n').filter((l) => l.startsWith('["DEBUG:"'))).toHaveLength(2);
    const twoLines = await msgctl(['patients', 'list', '--limit', '2', '--jq', 'error("a\\nb")'], { env: env() });
    expect(twoLines.exitCode).toBe(1);
    expect(twoLines.stderr).toContain('error: jq failed on 2 records, whose output is missing (first: jq: error (at record 1): a).');
  });

  it("jq's messages name the record by its place in the whole output, not in its page", async () => {
    const all = jsonLines((await msgctl(['patients', 'list', '--all', '--json', 'id'], { env: env() })).stdout);
    expect(all.length).toBeGreaterThan(4);
    // Pages of 2: the 3rd record is the first of page 2 (jq alone would say line 1), the 4th the last
    // of it, and the last one the last of the output (a page's last line, which jq counts only when ended).
    const stopAt = [2, 3, all.length - 1].map((i) => all[i]!.id as string);
    const program = `if (.id as $id | ${JSON.stringify(stopAt)} | any(. == $id)) then error("stop at \\(.id)") else .id end`;
    const expected = all.map((p) => p.id).filter((id) => !stopAt.includes(id as string));
    const raw = await withPageCap(sandbox.current, 2, () => msgctl(['patients', 'list', '--all', '--jq', program], { env: env() }));
    expect(raw.exitCode).toBe(1);
    for (const [n, id] of [[3, stopAt[0]], [4, stopAt[1]], [all.length, stopAt[2]]] as const) {
      expect(raw.stderr).toContain(`jq: error (at record ${n}): stop at ${id}`);
    }
    expect(raw.stderr).not.toContain('/dev/stdin');
    expect(raw.stdout.trim().split('\n')).toEqual(expected);
    // Fields picked first (the records go to jq as parsed objects, not as the page's text); with
    // --json the one problem line names the first message.
    const picked = await withPageCap(sandbox.current, 2, () => msgctl(['patients', 'list', '--all', '--json', 'id,first_name', '--jq', program], { env: env() }));
    expect(picked.exitCode).toBe(1);
    expect(JSON.parse(picked.stderr.trim())).toMatchObject({ code: 'jq_error', detail: expect.stringContaining(`(at record 3): stop at ${stopAt[0]}`) as unknown });
    expect(picked.stdout.trim().split('\n')).toEqual(expected);
  });

  it('an invalid jq program is exit 2 with jq\'s own message, and nothing is sent', async () => {
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['patients', 'list', '--jq', '.first_name |'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/jq: error: syntax error/);
    expect(r.stderr).toMatch(/jq: 1 compile error/);
    expect(sandbox.current.testing.requests().length).toBe(before);
  });

  it('--template prints each record through Mustache; a broken template or unknown field is exit 2', async () => {
    const r = await msgctl(['patients', 'list', '--limit', '3', '--template', '{{first_name}}\\t{{#phone}}{{phone}}{{/phone}}'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).every((l) => /^\S+\t\+1\d{10}$/.test(l))).toBe(true);
    const broken = await msgctl(['patients', 'list', '--template', '{{#phone}}no end'], { env: env() });
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/--template: Unclosed section "phone"/);
    const unknown = await msgctl(['patients', 'get', '00000000-0000-4000-8000-000000000000', '--template', '{{frist_name}}'], { env: env() });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown field "frist_name"');
  });

  it('are offered on every list and get, and msgctl api', async () => {
    for (const args of [['patients', 'list'], ['patients', 'get'], ['messages', 'list'], ['messages', 'get'], ['conversations', 'list'], ['campaigns', 'get'], ['campaigns', 'recipients', 'list'], ['me', 'messages'], ['staff', 'list'], ['org'], ['api']]) {
      const help = await msgctl([...args, '--help'], { env: env() });
      expect(help.stdout, args.join(' ')).toContain('--jq <expression>');
      expect(help.stdout, args.join(' ')).toContain('--template <text>');
      expect(help.stdout, args.join(' ')).toContain('--json [fields]');
    }
  });
});

describe('record views', () => {
  it.each(['campaigns get', 'campaigns create'])('%s: label: value lines that fit 80x24, no box, no empty fields, no cut label', async (which) => {
    const args = which === 'campaigns get' ? ['campaigns', 'get', campaignId] : ['campaigns', 'create', '--name', 'Recall', '--body', 'Please call us to book your annual check-up.'];
    const r = await msgctl(args, { env: env(), tty: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(80);
    expect(r.stdout).not.toMatch(/[│┌┐└┘├┤─…]/);
    expect(r.stdout).toMatch(/^interval: +2s between messages$|^interval: +\d+s between messages$/m);
    expect(r.stdout).toMatch(/^recipients: +\d+: \d+ pending, \d+ sent, \d+ delivered, \d+ failed, \d+ skipped$/m);
    expect(r.stdout).not.toMatch(/^started:/m); // a draft has not started: left out
    const wide = await msgctl(['campaigns', 'get', campaignId, '--wide'], { env: env(), tty: true, columns: 80 });
    expect(wide.stdout).toMatch(/^started:/m);
  });

  it('messages get reads as lines, a body whole and wrapped, with the time in the labelled zone', async () => {
    const sent = await msgctl(['send', '--to', '+15555550280', 'Your results are ready. '.repeat(8).trim(), '--json'], { env: env() });
    const id = JSON.parse(sent.stdout).message.id;
    const r = await msgctl(['messages', 'get', id], { env: { ...env(), MSGCTL_TIME_ZONE: 'Europe/Berlin' }, tty: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^sent: +\d{4}-\d{2}-\d{2} \d{2}:\d{2} (CET|CEST|GMT\+1|GMT\+2) \((just now|\d+[mh] ago)\)$/m);
    expect(r.stdout).toMatch(/^body: +Your results are ready\./m);
    expect(r.stdout.split('\n').length).toBeLessThanOrEqual(24);
    const boxChars = [...r.stdout].filter((c) => '│┌┐└┘├┤─'.includes(c)).length;
    expect(boxChars).toBe(0);
  });

  it('--plain prints list rows as label: value blocks (screen readers), without colour', async () => {
    const r = await msgctl(['patients', 'list', '--limit', '2', '--plain'], { env: colourEnv(), tty: true, columns: 120 });
    expect(r.stdout).toMatch(/^id: +[0-9a-f-]{36}\nname: +\S/m);
    expect(r.stdout).not.toContain('\x1b');
  });
});

describe('one time zone', () => {
  it('time_zone organization without a zone from the service says so and shows UTC, labelled', async () => {
    const r = await msgctl(['campaigns', 'get', campaignId], { env: { ...env(), MSGCTL_TIME_ZONE: 'organization' }, tty: true, columns: 100 });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('did not say the organization\'s time zone');
    expect(r.stdout).toMatch(/^created: +\S+ \d{2}:\d{2} UTC/m);
  });

  it('an unknown zone name is a warning, not a failure', async () => {
    const r = await msgctl(['campaigns', 'get', campaignId], { env: { ...env(), MSGCTL_TIME_ZONE: 'Mars/Olympus' }, tty: true, columns: 100 });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('"Mars/Olympus" is not a time zone');
  });

  it('--after says whose midnight a date means', async () => {
    const help = await msgctl(['messages', 'list', '--help'], { env: env() });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("YYYY-MM-DD (midnight in the organization's time zone)");
  });
});

describe('colour by the conventions', () => {
  const coloured = (text: string) => /\x1b\[[0-9;]*m/.test(text);
  const args = ['patients', 'list', '--limit', '2'];

  it('a terminal gets colour; NO_COLOR, CLICOLOR=0, FORCE_COLOR=0 and TERM=dumb take it away', async () => {
    expect(coloured((await msgctl(args, { env: colourEnv(), tty: true, columns: 120 })).stdout)).toBe(true);
    for (const off of [{ NO_COLOR: '1' }, { CLICOLOR: '0' }, { FORCE_COLOR: '0' }, { TERM: 'dumb' }]) {
      const r = await msgctl(args, { env: colourEnv(off), tty: true, columns: 120 });
      expect(coloured(r.stdout + r.stderr), JSON.stringify(off)).toBe(false);
    }
  });

  it('CLICOLOR_FORCE, FORCE_COLOR=1 and --color always force it, even over NO_COLOR; --color never and --no-color refuse it', async () => {
    for (const on of [{ CLICOLOR_FORCE: '1', NO_COLOR: '1' }, { FORCE_COLOR: '1', TERM: 'dumb' }]) {
      const r = await msgctl(args, { env: colourEnv(on), tty: true, columns: 120 });
      expect(coloured(r.stdout), JSON.stringify(on)).toBe(true);
    }
    expect(coloured((await msgctl([...args, '--color', 'always'], { env: colourEnv({ NO_COLOR: '1' }), tty: true, columns: 120 })).stdout)).toBe(true);
    expect(coloured((await msgctl([...args, '--color', 'never'], { env: colourEnv({ CLICOLOR_FORCE: '1' }), tty: true, columns: 120 })).stdout)).toBe(false);
    expect(coloured((await msgctl([...args, '--no-color'], { env: colourEnv(), tty: true, columns: 120 })).stdout)).toBe(false);
    const bad = await msgctl([...args, '--color', 'sometimes'], { env: env() });
    expect(bad.exitCode).toBe(2);
  });

  it('the profile\'s color setting applies below the flags and the environment', async () => {
    const e = colourEnv();
    const dir = e.XDG_CONFIG_HOME!;
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'msgctl'), { recursive: true });
    writeFileSync(join(dir, 'msgctl', 'config.json'), JSON.stringify({ default_profile: 'default', profiles: { default: { color: 'never' } } }));
    expect(coloured((await msgctl(args, { env: e, tty: true, columns: 120 })).stdout)).toBe(false);
    expect(coloured((await msgctl([...args, '--color', 'always'], { env: e, tty: true, columns: 120 })).stdout)).toBe(true);
  });
});

describe('-o FILE', () => {
  it('writes UTF-8 bytes straight to the file, and replaces it only when the command succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-out-'));
    const file = join(dir, 'patients.jsonl');
    const r = await msgctl(['patients', 'list', '--all', '--json', 'first_name', '-o', file], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const bytes = readFileSync(file);
    expect(bytes.includes(Buffer.from('"Zo\u00eb"', 'utf8'))).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(existsSync(`${file}.partial`)).toBe(false);
    // A failing command leaves the file as it was.
    const failed = await msgctl(['patients', 'get', '00000000-0000-4000-8000-000000000000', '--output', file], { env: env() });
    expect(failed.exitCode).toBe(4);
    expect(readFileSync(file)).toEqual(bytes);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it('a folder that cannot be written is exit 2 before anything is sent', async () => {
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['patients', 'list', '-o', '/nonexistent-dir/x.tsv'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Cannot create /nonexistent-dir/x.tsv.partial');
    expect(sandbox.current.testing.requests().length).toBe(before);
  });
});
