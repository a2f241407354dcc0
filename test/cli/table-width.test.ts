/**
 * Tables fit the terminal (product.md §2, issue 28): at 80 and 120 columns
 * every line of every list table fits (campaigns recipients list included),
 * columns are aligned with spaces (no box rules), low-value columns go first
 * and the id follow-up commands take goes last, whole; --wide brings every
 * column back. The three message tables share one set of headers, with
 * people by name. A terminal under 40 columns gets label: value blocks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { issueTokens } from '../helpers/login-harness.js';
import { staffWorld } from '../helpers/staff-world.js';
import { msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();
const BODY = 'Hello from Riverside Family Clinic: your lab results are ready, please call us back at your convenience.';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
let token = '';
let staffToken = '';
let campaignId = '';
let conversationId = '';

beforeAll(async () => {
  const env = sandboxEnv(sandbox.current);
  const patient = await msgctl(
    ['patients', 'create', '--first-name', 'Maximiliana', '--last-name', 'Featherstonehaugh', '--phone', '+15555550142', '--email', 'maximiliana.featherstonehaugh@example.org', '--mrn', 'MRN-000123456', '--dob', '1980-02-03', '--json'],
    { env },
  );
  expect(patient.exitCode, patient.stderr).toBe(0);
  for (const to of ['+15555550142', '+15555550143']) {
    const sent = await msgctl(['send', '--to', to, BODY], { env });
    expect(sent.exitCode, sent.stderr).toBe(0);
  }
  const campaign = await msgctl(['campaigns', 'create', '--name', 'Autumn flu shot recall for every adult patient', '--body', BODY, '--json'], { env });
  expect(campaign.exitCode, campaign.stderr).toBe(0);
  campaignId = JSON.parse(campaign.stdout).id;
  const added = await msgctl(['campaigns', 'recipients', 'add', campaignId, '--patient', JSON.parse(patient.stdout).id], { env });
  expect(added.exitCode, added.stderr).toBe(0);
  token = (await issueTokens(sandbox.current)).access_token;
  const world = staffWorld(sandbox.current);
  const chat = world.addConversation([world.dana, world.sam]);
  world.addMessage(chat, world.sam, 'Can you cover the front desk at noon? The phones have been busy all morning.');
  conversationId = chat.id;
  staffToken = world.mintToken();
});

/** Display width of the widest line (every character here is one column wide). */
const widest = (text: string) => Math.max(0, ...text.split('\n').map((line) => [...line].length));

interface Table {
  name: string;
  args: () => string[];
  headers: string[];
  /** The id column's header, shown whole. */
  id: string;
  /** Shown at 80 columns too: a long name is cut before a key column goes from every row. */
  keep?: string[];
  auth?: 'oauth' | 'staff';
}

const MESSAGE_HEADERS = ['TIME', 'ID', 'CONVERSATION', 'FROM', 'CHANNEL', 'STATUS', 'BODY'];

const tables: Table[] = [
  { name: 'patients list', args: () => ['patients', 'list'], headers: ['ID', 'NAME', 'DOB', 'PHONE', 'EMAIL', 'MRN', 'SMS_OPTED_OUT'], id: 'ID', keep: ['NAME', 'PHONE'] },
  { name: 'campaigns list', args: () => ['campaigns', 'list'], headers: ['ID', 'NAME', 'STATUS', 'CHANNEL', 'FROM', 'RECIPIENTS', 'SENT', 'DELIVERED', 'FAILED', 'SKIPPED', 'PENDING', 'ARCHIVED'], id: 'ID', keep: ['NAME', 'STATUS'] },
  { name: 'campaigns recipients list', args: () => ['campaigns', 'recipients', 'list', campaignId], headers: ['PATIENT_ID', 'NAME', 'STATUS', 'MESSAGE_ID', 'ERROR', 'UPDATED_AT'], id: 'PATIENT_ID', keep: ['NAME', 'STATUS'] },
  { name: 'messages list', args: () => ['messages', 'list', '--after', '2000-01-01'], headers: MESSAGE_HEADERS, id: 'ID' },
  { name: 'conversations list', args: () => ['conversations', 'list'], headers: ['ACTIVITY', 'ID', 'PATIENT', 'NUMBER', 'CHANNEL', 'UNREAD', 'LATEST'], id: 'ID' },
  { name: 'me messages', args: () => ['me', 'messages'], headers: MESSAGE_HEADERS, id: 'ID', auth: 'oauth' },
  { name: 'conversations messages', args: () => ['conversations', 'messages', conversationId], headers: ['TIME', 'ID', 'FROM', 'BODY'], id: 'ID', auth: 'staff' },
  { name: 'conversations participants', args: () => ['conversations', 'participants', conversationId], headers: ['NAME', 'USER_ID', 'JOINED_AT'], id: 'USER_ID', auth: 'staff' },
  { name: 'staff list', args: () => ['staff', 'list'], headers: ['ID', 'NAME', 'ROLE', 'EMAIL'], id: 'ID', auth: 'staff' },
];

function envFor(auth: Table['auth']) {
  if (auth === 'oauth') return { ...sandboxEnv(sandbox.current), MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: token };
  if (auth === 'staff') return { ...sandboxEnv(sandbox.current), MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: staffToken };
  return sandboxEnv(sandbox.current);
}

/** The headers on a table's first line (a time header carries its zone: "TIME (UTC)"). */
function headersOf(stdout: string): string[] {
  return stdout.split('\n')[0]!.replace(/ \([^)]*\)/g, '').split(/ {2,}/).map((h) => h.trim()).filter(Boolean);
}

describe.each(tables)('$name on a terminal', ({ args, headers, id, auth, keep = [] }) => {
  it.each([80, 120])('fits %i columns, aligned with spaces, saying what it hid', async (columns) => {
    const r = await msgctl(args(), { env: envFor(auth), tty: true, columns });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n').length).toBeGreaterThan(1);
    expect(widest(r.stdout), r.stdout).toBeLessThanOrEqual(columns);
    expect(r.stdout).not.toMatch(/[│┌┐└┘├┤─]/);
    const shown = headersOf(r.stdout);
    for (const h of shown) expect(headers, `unexpected header ${h}`).toContain(h);
    expect(widest(r.stderr)).toBeLessThanOrEqual(columns);
    // What it says it hid are columns it did not show (an empty column is left out without a word).
    const hid = /\(([a-z_, ]+) hidden to fit the window; --wide shows all\)/.exec(r.stderr);
    for (const h of hid ? hid[1]!.split(', ') : []) expect(shown).not.toContain(h.toUpperCase());
    // The id stays: it is dropped only after every other droppable column, and never cut.
    expect(shown).toContain(id);
    for (const h of keep) expect(shown, r.stdout).toContain(h);
    expect(r.stdout.split('\n')[1]).toMatch(id === 'ID' && auth !== 'staff' && args()[0] !== 'campaigns' ? UUID : /\S/);
    expect(r.stdout).toMatch(UUID);
    expect(r.stdout).not.toMatch(/[0-9a-f]{8}-[0-9a-f-]{1,26}…/);
  });

  it('shows every column, the id whole, with --wide', async () => {
    const r = await msgctl([...args(), '--wide'], { env: envFor(auth), tty: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    const shown = headersOf(r.stdout);
    for (const h of headers) if (!['NAME'].includes(h) || auth !== 'staff') expect(shown).toContain(h);
    expect(r.stdout).toMatch(UUID);
    expect(r.stderr).not.toContain('hidden');
  });
});

describe('the message tables', () => {
  it('share one set of headers, and name people instead of showing their ids', async () => {
    const patients = await msgctl(['messages', 'list', '--after', '2000-01-01', '--wide'], { env: envFor(undefined), tty: true, columns: 200 });
    const mine = await msgctl(['me', 'messages', '--wide'], { env: envFor('oauth'), tty: true, columns: 200 });
    const staff = await msgctl(['conversations', 'messages', conversationId, '--wide'], { env: envFor('staff'), tty: true, columns: 200 });
    expect(headersOf(patients.stdout)).toEqual(MESSAGE_HEADERS);
    expect(headersOf(mine.stdout)).toEqual(MESSAGE_HEADERS);
    expect(headersOf(staff.stdout)).toEqual(MESSAGE_HEADERS);
    const world = staffWorld(sandbox.current);
    expect(staff.stdout).toContain(world.sam.name);
    expect(staff.stdout).not.toContain(world.sam.id);
  });

  it('show the whole body with --wide, past the window\'s edge (it is the last column)', async () => {
    const r = await msgctl(['messages', 'list', '--after', '2000-01-01', '--wide'], { env: sandboxEnv(sandbox.current), tty: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(BODY.length).toBeGreaterThan(40);
    expect(r.stdout).toContain(BODY);
  });

  it('keep a readable body at 80 columns', async () => {
    const r = await msgctl(['messages', 'list', '--after', '2000-01-01'], { env: sandboxEnv(sandbox.current), tty: true, columns: 80 });
    expect(r.stdout).toContain(BODY.slice(0, 20));
  });
});

describe('a terminal narrower than 40 columns', () => {
  it('prints each row as label: value lines that fit, the id whole', async () => {
    const r = await msgctl(['patients', 'list', '--limit', '3'], { env: sandboxEnv(sandbox.current), tty: true, columns: 38 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(widest(r.stdout), r.stdout).toBeLessThanOrEqual(38);
    expect(r.stdout).toMatch(new RegExp(`^id:\\s+${UUID.source}$`, 'm'));
    expect(r.stdout).toMatch(/^name:\s+\S/m);
  });
});

describe('one time zone in tables', () => {
  it('labels the zone in the header, shows recent times relative, and piped output keeps RFC 3339 UTC', async () => {
    const env = { ...sandboxEnv(sandbox.current), MSGCTL_TIME_ZONE: 'America/New_York' };
    const table = await msgctl(['messages', 'list', '--after', '2000-01-01'], { env, tty: true, columns: 120 });
    expect(table.stdout.split('\n')[0]).toMatch(/^TIME \((EST|EDT)\) /);
    expect(table.stdout).toMatch(/^(just now|\d+[mh] ago|[A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}|\d{4}-\d{2}-\d{2}) /m);
    expect(table.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const piped = await msgctl(['messages', 'list', '--after', '2000-01-01'], { env });
    expect(piped.stdout).toMatch(/\t\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\t/);
  });
});
