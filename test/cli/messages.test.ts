/**
 * `msgctl messages list/get` against the sandbox: every filter, every `q`
 * operator and combinations, grouping and order, time zones (the organization
 * is in America/New_York; 2026-03-08 is the day US clocks spring forward),
 * local refusals (exit 2, nothing sent) and the service's refusals.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox, withPageCap } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, isolatedEnv, jsonLines } from '../helpers/in-process.js';
import { accessTokens } from '../../src/sandbox/domain/access-tokens.js';
import type { MessageRecord } from '../../src/sandbox/domain/records.js';
import { addConversation, addMessage, keySender, patientByMrn, staffSender } from '../helpers/messages-fixtures.js';

const sandbox = useSandbox();
const env = (extra: Record<string, string | undefined> = {}) => sandboxEnv(sandbox.current, extra);

const base = Date.parse('2026-03-05T15:00:00Z');
const hours = (h: number) => base + h * 3_600_000;
let m: Record<string, MessageRecord>;
let conversations: Record<string, string>;

beforeAll(() => {
  const sb = sandbox.current.sb;
  const dana = staffSender(sb, 'dana@riverside.example');
  const sam = staffSender(sb, 'sam@riverside.example');
  const fullKey = keySender(sb, 'Sandbox full access');
  const remindersKey = keySender(sb, 'Reminders only');
  const adaSms = addConversation(sb, 'A-1001', '+15555550100', 'sms');
  const adaSecure = addConversation(sb, 'A-1001', '+15555550110', 'secure');
  const grace = addConversation(sb, 'A-1002', '+15555550100', 'sms');
  const frank = addConversation(sb, 'A-5001', '+15555550100', 'sms');
  const other = addConversation(sb, 'L-1', '+15555550200', 'sms');
  m = {
    m1: addMessage(sb, adaSms, { at: hours(0), from: 'patient', body: 'Can I get a refill for my inhaler?' }),
    m2: addMessage(sb, adaSms, { at: hours(1), from: dana, body: 'Your refill is ready for pickup.' }),
    m3: addMessage(sb, adaSecure, { at: hours(2), from: fullKey, body: 'Appointment reminder: Tuesday at 9:30', status: 'opened' }),
    m4: addMessage(sb, grace, { at: hours(3), from: 'patient', body: 'Thanks, see you soon' }),
    m5: addMessage(sb, grace, { at: hours(4), from: sam, body: 'See you soon! Bring your insurance card.' }),
    m6: addMessage(sb, frank, { at: hours(5), from: remindersKey, body: 'Your lab results are ready', status: 'failed' }),
    m7: addMessage(sb, frank, { at: hours(6), from: 'patient', body: 'Did my lab results come back?' }),
    // Local midnight of 2026-03-08 is 05:00Z (EST); of 2026-03-09, 04:00Z (EDT).
    m8: addMessage(sb, grace, { at: '2026-03-08T04:59:59.999Z', from: sam, body: 'late night note' }),
    m9: addMessage(sb, grace, { at: '2026-03-08T05:00:00.000Z', from: 'patient', body: 'midnight message' }),
    m10: addMessage(sb, grace, { at: '2026-03-09T03:59:59.999Z', from: sam, body: 'last of the 8th' }),
    m11: addMessage(sb, grace, { at: '2026-03-09T04:00:00.000Z', from: 'patient', body: 'first of the 9th' }),
    other: addMessage(sb, other, { at: hours(1), from: 'patient', body: 'other org refill' }),
  };
  adaSms.seen_at = new Date(hours(-1)).toISOString(); // m1 unread
  grace.seen_at = '2026-03-10T00:00:00.000Z'; // all read
  frank.seen_at = null; // m7 unread
  conversations = { adaSms: adaSms.id, adaSecure: adaSecure.id, grace: grace.id, frank: frank.id };
});

/** Ids printed by `messages list --json …`, checking the command succeeded. */
async function listed(args: string[], extra: Record<string, string | undefined> = {}): Promise<string[]> {
  const r = await msgctl(['messages', 'list', '--json', ...args], { env: env(extra) });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return jsonLines<{ id: string }>(r.stdout).map((x) => x.id);
}

const names = (...keys: string[]) => keys.map((k) => m[k]!.id);
const newestFirst = ['m11', 'm10', 'm9', 'm8', 'm7', 'm6', 'm5', 'm4', 'm3', 'm2', 'm1'];

describe('messages list: range, order, scope', () => {
  it('lists every patient message in range, newest first: not team chats, not another organization', async () => {
    expect(await listed(['--after', '2026-03-01', '--all'])).toEqual(names(...newestFirst));
  });

  it('--order asc lists oldest first', async () => {
    expect(await listed(['--after', '2026-03-01', '--order', 'asc'])).toEqual(names(...[...newestFirst].reverse()));
  });

  it('a date means midnight in the organization\'s time zone, on both sides of a DST change', async () => {
    expect(await listed(['--after', '2026-03-08'])).toEqual(names('m11', 'm10', 'm9'));
    expect(await listed(['--after', '2026-03-08', '--before', '2026-03-09'])).toEqual(names('m10', 'm9'));
  });

  it('takes RFC 3339 times with offsets', async () => {
    expect(await listed(['--after', '2026-03-08T00:00:00-05:00', '--before', '2026-03-09T04:00:00Z'])).toEqual(names('m10', 'm9'));
    expect(await listed(['--after', '2026-03-05T16:00:00Z', '--before', '2026-03-05T17:00:00.001Z'])).toEqual(names('m3', 'm2'));
  });

  it('--patient covers the patient\'s conversations on every number, without a time range', async () => {
    expect(await listed(['--patient', patientByMrn(sandbox.current.sb, 'A-1001').id])).toEqual(names('m3', 'm2', 'm1'));
  });

  it('--conversation lists one conversation; combined with another patient it is empty', async () => {
    expect(await listed(['--conversation', conversations.frank!])).toEqual(names('m7', 'm6'));
    const grace = patientByMrn(sandbox.current.sb, 'A-1002').id;
    expect(await listed(['--patient', grace, '--conversation', conversations.adaSms!])).toEqual([]);
  });

  it('--limit caps what is printed; --all follows every page', async () => {
    expect(await listed(['--after', '2026-03-01', '--limit', '3'])).toEqual(names('m11', 'm10', 'm9'));
    expect(await withPageCap(sandbox.current, 2, () => listed(['--after', '2026-03-01', '--all']))).toEqual(names(...newestFirst));
    expect(await withPageCap(sandbox.current, 2, () => listed(['--after', '2026-03-01', '--limit', '5', '--order', 'asc']))).toEqual(names('m1', 'm2', 'm3', 'm4', 'm5'));
  });

  it('another organization\'s key sees only its own messages', async () => {
    expect(await listed(['--after', '2026-03-01'], { MSGCTL_API_KEY: sandbox.current.credentials.other_org_api_key })).toEqual(names('other'));
  });

  it('an admin\'s OAuth token may read without a range', async () => {
    const { sb, credentials } = sandbox.current;
    const admin = sb.db.users.find((u) => u.role === 'admin' && u.orgId === credentials.organization_id)!;
    const token = `mat_test_${randomUUID()}`;
    accessTokens(sb.store).put({
      id: token, orgId: admin.orgId, userId: admin.id, clientId: credentials.oauth_client_id,
      scopes: ['messages.read'], expiresMs: sb.clock.now() + 3_600_000, revoked: false, grantId: randomUUID(),
    });
    const all = await listed(['--all'], { MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: token });
    expect(all.slice(-11)).toEqual(names(...newestFirst));
  });
});

describe('messages list --group-by conversation', () => {
  const byConversationDesc = ['m11', 'm10', 'm9', 'm8', 'm5', 'm4', 'm7', 'm6', 'm3', 'm2', 'm1'];
  const byConversationAsc = ['m1', 'm2', 'm3', 'm6', 'm7', 'm4', 'm5', 'm8', 'm9', 'm10', 'm11'];

  it('orders conversations by their latest in-range message, and messages within each', async () => {
    expect(await listed(['--after', '2026-03-01', '--group-by', 'conversation', '--all'])).toEqual(names(...byConversationDesc));
    expect(await listed(['--after', '2026-03-01', '--group-by', 'conversation', '--order', 'asc', '--all'])).toEqual(names(...byConversationAsc));
  });

  it('keeps that order across small pages', async () => {
    expect(await withPageCap(sandbox.current, 3, () => listed(['--after', '2026-03-01', '--group-by', 'conversation', '--all']))).toEqual(names(...byConversationDesc));
    expect(await withPageCap(sandbox.current, 1, () => listed(['--after', '2026-03-01', '--group-by', 'conversation', '--order', 'asc', '--all']))).toEqual(names(...byConversationAsc));
  });

  it('on a terminal too narrow for the conversation column, each conversation heads its rows, across pages', async () => {
    const args = ['messages', 'list', '--after', '2026-03-01', '--group-by', 'conversation', '--all'];
    const r = await withPageCap(sandbox.current, 3, () => msgctl(args, { env: env(), tty: true, columns: 80 }));
    expect(r.exitCode, r.stderr).toBe(0);
    const json = jsonLines((await msgctl([...args, '--json'], { env: env() })).stdout);
    const heads = json.map((m) => `${m.patient?.name ?? m.conversation.title}${m.channel ? ` (${m.channel})` : ''} · ${m.conversation.id}`).filter((t, i, all) => t !== all[i - 1]);
    expect(heads.length).toBeGreaterThan(2);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).not.toMatch(/CONVERSATION/);
    expect(lines.filter((line) => heads.includes(line))).toEqual(heads);
  });

  it('orders by the latest message within the range, not overall', async () => {
    // Before 2026-03-06, grace's latest message is m5 (before frank's m6): frank's conversation comes first.
    expect(await listed(['--after', '2026-03-01', '--before', '2026-03-06', '--group-by', 'conversation'])).toEqual(
      names('m7', 'm6', 'm5', 'm4', 'm3', 'm2', 'm1'),
    );
  });
});

describe('messages list -q', () => {
  const cases: [string, string[]][] = [
    ['refill', ['m2', 'm1']],
    ['"see you soon"', ['m5', 'm4']],
    ['from:patient', ['m11', 'm9', 'm7', 'm4', 'm1']],
    ['from:staff', ['m10', 'm8', 'm5', 'm2']],
    ['from:api_key', ['m6', 'm3']],
    ['from:sam', ['m10', 'm8', 'm5']],
    ['from:"reminders only"', ['m6']],
    ['patient:lovelace', ['m3', 'm2', 'm1']],
    ['mrn:a-5001', ['m7', 'm6']],
    ['phone:0124', ['m11', 'm10', 'm9', 'm8', 'm5', 'm4']],
    ['phone:"(555) 555-0110"', ['m3']],
    ['is:unread', ['m7', 'm1']],
    ['is:failed', ['m6']],
    ['lab -from:patient', ['m6']],
    ['refill OR lab', ['m7', 'm6', 'm2', 'm1']],
    ['(refill OR lab) is:unread', ['m7', 'm1']],
    ['-(from:patient OR from:staff)', ['m6', 'm3']],
    ['', newestFirst],
  ];

  it.each(cases)('%s', async (q, expected) => {
    expect(await listed(['--after', '2026-03-01', '-q', q])).toEqual(names(...expected));
  });

  it('patient:<id> matches the patient exactly', async () => {
    const grace = patientByMrn(sandbox.current.sb, 'A-1002').id;
    expect(await listed(['--after', '2026-03-01', '-q', `patient:${grace.toUpperCase()}`])).toEqual(names('m11', 'm10', 'm9', 'm8', 'm5', 'm4'));
  });

  it('combines with the other filters', async () => {
    const ada = patientByMrn(sandbox.current.sb, 'A-1001').id;
    expect(await listed(['--patient', ada, '-q', 'from:staff OR from:api_key'])).toEqual(names('m3', 'm2'));
    expect(await listed(['--after', '2026-03-08', '--group-by', 'conversation', '-q', 'from:patient', '--order', 'asc'])).toEqual(names('m9', 'm11'));
  });

  it('an unparseable query is the service\'s 400 invalid_query: a usage error, exit 2, position in the message', async () => {
    const r = await msgctl(['messages', 'list', '--after', '2026-03-01', '-q', 'refill (OR'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/hint: fix the -q query/);
    expect(r.stderr).toMatch(/invalid_query, HTTP 400/);
    expect(r.stderr).toMatch(/at position \d+/);
    expect(r.stdout).toBe('');
    const json = await msgctl(['messages', 'list', '--after', '2026-03-01', '-q', 'from:', '--json'], { env: env() });
    expect(json.exitCode).toBe(2);
    expect(jsonLines(json.stderr)[0]).toMatchObject({ status: 400, code: 'invalid_query', position: 5 });
  });
});

describe('messages list: refusals', () => {
  it('an API key must give a range: checked locally, exit 2 naming the flags, no request', async () => {
    const requests = () => sandbox.current.testing.requests().filter((q) => q.path.startsWith('/patient-messages')).length;
    const before = requests();
    const r = await msgctl(['messages', 'list'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/give --after, --patient or --conversation/);
    expect(r.stderr).not.toMatch(/range_required|patient_id/);
    const followed = await msgctl(['messages', 'list', '--follow', '--json'], { env: env() });
    expect(followed.exitCode).toBe(2);
    expect(jsonLines(followed.stderr)[0]).toMatchObject({ code: 'usage_error' });
    expect(requests()).toBe(before);
  });

  it('a key without messages.read gets insufficient_scope, exit 3', async () => {
    const r = await msgctl(['messages', 'list', '--after', '7d'], { env: env({ MSGCTL_API_KEY: sandbox.current.credentials.limited_api_key }) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/insufficient_scope/);
  });

  it.each([
    [['--after', 'last tuesday'], /--after "last tuesday" is not a time/],
    [['--before', '2026-02-30'], /--before "2026-02-30" is not a time: 2026-02 has no day 30/],
    [['--after', '2026-03-01T25:00:00Z'], /--after .* is not a time/],
    [['--after', '7d', '--patient', 'ada'], /--patient "ada" is not an id/],
    [['--conversation', '123'], /--conversation "123" is not an id/],
    [['--after', '7d', '--group-by', 'thread'], /Allowed: message, conversation/],
    [['--after', '7d', '--order', 'newest'], /Allowed: desc, asc/],
    [['--after', '7d', '--follow', '--before', 'now'], /cannot be combined with --before/],
    [['--after', '7d', '--follow', '--group-by', 'conversation'], /drop --group-by conversation/],
  ])('refuses %j locally with exit 2 and sends nothing', async (args, message) => {
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['messages', 'list', ...args], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(sandbox.current.testing.requests().length).toBe(before);
  });

  it('accepts today, yesterday and ages', async () => {
    const forms = ['today', 'yesterday', '24h', '7d', '30m', '2w', 'now'];
    const results = await Promise.all(forms.map((when) => msgctl(['messages', 'list', '--after', when, '--json'], { env: env() })));
    results.forEach((r, i) => expect(r.exitCode, `${forms[i]}: ${r.stderr}`).toBe(0));
  });
});

describe('messages list output', () => {
  it('prints stable tab-separated rows when piped', async () => {
    const r = await msgctl(['messages', 'list', '--conversation', conversations.frank!], { env: env() });
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows).toEqual([
      [m.m7!.id, m.m7!.created_at, conversations.frank, m.m7!.patientId, 'Frank Failing', 'in', 'patient', 'Frank Failing', 'sms', 'unread', 'Did my lab results come back?'],
      [m.m6!.id, m.m6!.created_at, conversations.frank, m.m6!.patientId, 'Frank Failing', 'out', 'api_key', 'Reminders only', 'sms', 'failed', 'Your lab results are ready'],
    ]);
  });

  it('prints full Message objects with --json', async () => {
    const r = await msgctl(['messages', 'list', '--conversation', conversations.adaSecure!, '--json'], { env: env() });
    const [message] = jsonLines(r.stdout);
    expect(message).toMatchObject({
      id: m.m3!.id,
      conversation: { id: conversations.adaSecure, title: 'Ada Lovelace' },
      sender: { kind: 'api_key', name: 'Sandbox full access' },
      patient: { name: 'Ada Lovelace' },
      channel: 'secure',
      delivery: { status: 'opened' },
      unread: false,
      body: 'Appointment reminder: Tuesday at 9:30',
    });
  });

  it('prints nothing when nothing matches', async () => {
    const r = await msgctl(['messages', 'list', '--after', '2026-03-01', '-q', 'zebra'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('messages get', () => {
  it('shows one message with its delivery status', async () => {
    const r = await msgctl(['messages', 'get', m.m6!.id, '--json'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ id: m.m6!.id, delivery: { status: 'failed' } });
    const plain = await msgctl(['messages', 'get', m.m6!.id], { env: env() });
    expect(plain.stdout).toMatch(/^status\tfailed$/m);
  });

  it('refuses a non-UUID locally (exit 2) and reports an unknown id (exit 4)', async () => {
    expect((await msgctl(['messages', 'get', 'nope'], { env: env() })).exitCode).toBe(2);
    const r = await msgctl(['messages', 'get', randomUUID()], { env: env() });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/not_found/);
  });

  it('needs a credential (exit 3)', async () => {
    const r = await msgctl(['messages', 'get', m.m1!.id], { env: isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl }) });
    expect(r.exitCode).toBe(3);
  });
});
