/**
 * The sandbox's /me endpoints over HTTP: profile, the admin's messages (patient
 * conversations and her team chats only), grouping, paging, sending.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { issueTokens } from '../helpers/login-harness.js';
import { isolatedEnv, jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();
let token = '';

beforeAll(async () => {
  token = (await issueTokens(sandbox.current)).access_token;
  // A patient conversation with traffic, through the API key.
  for (const body of ['Your results are ready', 'Please call us back']) {
    const r = await api('POST', '/patient-messages', { to: { phone: '+15555550123' }, body }, sandbox.current.credentials.api_key);
    expect(r.status).toBe(201);
  }
});

async function api(method: string, path: string, body?: unknown, bearer = token, headers: Record<string, string> = {}) {
  const r = await fetch(`${sandbox.current.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as any };
}

const chatWith = (title: string) => [...sandbox.current.sb.db.conversations.values()].find((c) => c.title === title)!;

describe('GET /me', () => {
  it('shows the admin, organization, app, scopes and the grant expiry', async () => {
    const r = await api('GET', '/me');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      user: { name: 'Dana Admin', role: 'admin' },
      organization: { id: sandbox.current.credentials.organization_id, name: 'Riverside Family Clinic' },
      app: { client_id: 'msgctl-sandbox-cli', name: 'msgctl CLI' },
    });
    expect(r.body.scopes).toContain('messages.read');
    // offline_access: the grant lasts 30 days, well past the 1-hour access token.
    const days = (Date.parse(r.body.expires_at) - sandbox.current.sb.clock.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
  });

  it('refuses an API key with oauth_required', async () => {
    const r = await api('GET', '/me', undefined, sandbox.current.credentials.api_key);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('oauth_required');
  });
});

describe('GET /me/messages', () => {
  it('lists patient conversations and Dana\'s team chat, never a chat she is not in', async () => {
    const r = await api('GET', '/me/messages');
    expect(r.status).toBe(200);
    const titles = new Set(r.body.data.map((m: any) => m.conversation.title));
    expect(titles).toContain('Dana Admin, Sam Staff');
    expect(titles).toContain('Ada Lovelace');
    expect(titles).not.toContain('Sam Staff, Riley Nurse');
    const times = r.body.data.map((m: any) => m.created_at);
    expect(times).toEqual([...times].sort());
  });

  it('groups by conversation, most recently active first', async () => {
    const r = await api('GET', '/me/messages?group_by=conversation');
    const order = r.body.data.map((m: any) => m.conversation.title);
    expect(order[0]).toBe('Ada Lovelace');
    expect(order.indexOf('Dana Admin, Sam Staff')).toBeGreaterThan(order.lastIndexOf('Ada Lovelace'));
  });

  it('pages with cursors without gaps or repeats, also when grouped', async () => {
    for (const group of ['', '&group_by=conversation']) {
      const all = (await api('GET', `/me/messages?page[limit]=100${group}`)).body.data.map((m: any) => m.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await api('GET', `/me/messages?page[limit]=2${group}${cursor ? `&page[after]=${cursor}` : ''}`);
        seen.push(...page.body.data.map((m: any) => m.id));
        cursor = page.body.pagination.next_cursor;
      } while (cursor);
      expect(seen).toEqual(all);
    }
  });

  it('filters with after (timestamp or date) and rejects nonsense', async () => {
    const future = new Date(sandbox.current.sb.clock.now() + 86_400_000).toISOString();
    expect((await api('GET', `/me/messages?after=${future}`)).body.data).toEqual([]);
    expect((await api('GET', '/me/messages?after=2000-01-01')).body.data.length).toBeGreaterThan(3);
    expect((await api('GET', '/me/messages?after=yesterday')).status).toBe(400);
    expect((await api('GET', '/me/messages?group_by=patient')).status).toBe(400);
  });

  it('gets one message, and 404 for a message in a chat Dana is not in', async () => {
    const mine = sandbox.current.sb.db.messages.find((m) => m.conversationId === chatWith('Dana Admin, Sam Staff').id)!;
    const other = sandbox.current.sb.db.messages.find((m) => m.conversationId === chatWith('Sam Staff, Riley Nurse').id)!;
    expect((await api('GET', `/me/messages/${mine.id}`)).body.body).toBe(mine.body);
    expect((await api('GET', `/me/messages/${other.id}`)).status).toBe(404);
  });

  it('reading marks nothing read', async () => {
    const ada = chatWith('Ada Lovelace');
    const before = ada.seen_at;
    await api('GET', '/me/messages');
    expect(chatWith('Ada Lovelace').seen_at).toBe(before);
  });
});

describe('POST /me/conversations/{id}/messages', () => {
  it('sends in a team chat under Dana\'s name via the app, marks it read, emits message.created', async () => {
    const chat = chatWith('Dana Admin, Sam Staff');
    const events: any[] = [];
    sandbox.current.sb.events.on('message.created', (m) => events.push(m));
    const r = await api('POST', `/me/conversations/${chat.id}/messages`, { body: 'On my way' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      body: 'On my way',
      sender: { name: 'Dana Admin', kind: 'staff' },
      sent_via: 'msgctl CLI',
      conversation: { id: chat.id },
    });
    expect(chatWith('Dana Admin, Sam Staff').seen_at).toBe(r.body.created_at);
    expect(events.map((e) => e.id)).toContain(r.body.id);
  });

  it('sends in a patient conversation like a patient message (queued delivery)', async () => {
    const ada = chatWith('Ada Lovelace');
    const r = await api('POST', `/me/conversations/${ada.id}/messages`, { body: 'See you at 3' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ conversation: { id: ada.id }, sender: { name: 'Dana Admin' }, sent_via: 'msgctl CLI', delivery: { status: 'queued' } });
    expect(chatWith('Ada Lovelace').seen_at).not.toBeNull();
  });

  it('404s for a chat Dana is not in and for unknown conversations', async () => {
    expect((await api('POST', `/me/conversations/${chatWith('Sam Staff, Riley Nurse').id}/messages`, { body: 'hi' })).status).toBe(404);
    expect((await api('POST', `/me/conversations/${randomUUID()}/messages`, { body: 'hi' })).status).toBe(404);
  });

  it('validates the body and requires an Idempotency-Key', async () => {
    const chat = chatWith('Dana Admin, Sam Staff');
    const long = await api('POST', `/me/conversations/${chat.id}/messages`, { body: 'x'.repeat(1601) });
    expect(long.status).toBe(422);
    expect(long.body.field_errors[0]).toMatchObject({ path: '/body', code: 'too_long' });
    const empty = await api('POST', `/me/conversations/${chat.id}/messages`, {});
    expect(empty.body.field_errors[0]).toMatchObject({ path: '/body', code: 'required' });
    const noKey = await fetch(`${sandbox.current.baseUrl}/me/conversations/${chat.id}/messages`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"body":"x"}',
    });
    expect(noKey.status).toBe(400);
  });
});

describe('msgctl me (CLI)', () => {
  const cliEnv = (extra: Record<string, string | undefined> = {}) =>
    isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl, MSGCTL_TOKEN: token, ...extra });

  it('prints the profile: TSV when piped, one JSON line with --json', async () => {
    const plain = await msgctl(['me'], { env: cliEnv() });
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^user\tDana Admin\n/);
    expect(plain.stdout).toMatch(/\nrole\tadmin\n/);
    expect(plain.stdout).toMatch(/\nscopes\t.*messages\.read/);
    expect(plain.stdout).toMatch(/\nexpires_at\t\d{4}-/);
    const json = await msgctl(['me', '--json'], { env: cliEnv() });
    expect(jsonLines(json.stdout)).toHaveLength(1);
    expect(jsonLines(json.stdout)[0].organization.name).toBe('Riverside Family Clinic');
  });

  it('on a terminal, the expiry is in the one zone every view uses, labelled (not the raw UTC text)', async () => {
    const r = await msgctl(['me'], { env: cliEnv({ MSGCTL_TIME_ZONE: 'Asia/Kolkata' }), tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^expires at: +\d{4}-\d\d-\d\d \d\d:\d\d GMT\+5:30$/m);
    expect(r.stdout).not.toMatch(/\d\d:\d\d:\d\d\.\d{3}Z/);
  });

  it('exits 3 with oauth_required and a login hint for an API key', async () => {
    const r = await msgctl(['me'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/oauth_required/);
    expect(r.stderr).toMatch(/msgctl login/);
    expect(r.stdout).toBe('');
  });

  it('lists messages as JSON lines, grouped, limited, or as TSV rows', async () => {
    const all = await msgctl(['me', 'messages', '--all', '--json'], { env: cliEnv() });
    expect(all.exitCode, all.stderr).toBe(0);
    const messages = jsonLines(all.stdout);
    expect(messages.length).toBeGreaterThan(4);
    expect(messages.some((m) => m.conversation.title === 'Sam Staff, Riley Nurse')).toBe(false);

    const limited = await msgctl(['me', 'messages', '--limit', '2', '--json'], { env: cliEnv() });
    expect(jsonLines(limited.stdout).map((m) => m.id)).toEqual(messages.slice(0, 2).map((m) => m.id));

    const grouped = await msgctl(['me', 'messages', '--group-by', 'conversation', '--all', '--json'], { env: cliEnv() });
    const titles = jsonLines(grouped.stdout).map((m) => m.conversation.title);
    expect(titles.filter((t, i) => t !== titles[i - 1]).length).toBe(new Set(titles).size);

    const tsv = await msgctl(['me', 'messages', '--after', '2000-01-01'], { env: cliEnv() });
    const first = tsv.stdout.split('\n')[0]!.split('\t');
    expect(first).toHaveLength(5);
    expect(first[0]).toBe(messages[0].id);

    const future = await msgctl(['me', 'messages', '--after', '2999-01-01T00:00:00Z', '--json'], { env: cliEnv() });
    expect(future.stdout).toBe('');
    const bad = await msgctl(['me', 'messages', '--after', 'last week'], { env: cliEnv() });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--after "last week" is not a time');
    // The forms messages list takes: an age, yesterday.
    for (const after of ['7d', 'yesterday']) {
      const recent = await msgctl(['me', 'messages', '--after', after, '--json'], { env: cliEnv() });
      expect(recent.exitCode, recent.stderr).toBe(0);
      expect(jsonLines(recent.stdout).length, after).toBeGreaterThan(0);
    }
  });

  it('grouped by conversation on an 80-column terminal, which hides the conversation column, each conversation heads its rows', async () => {
    const ungrouped = await msgctl(['me', 'messages', '--all'], { env: cliEnv(), tty: true, columns: 80 });
    expect(ungrouped.exitCode, ungrouped.stderr).toBe(0);
    // At this width the table hides the conversation column (and says so): what grouping must not lose.
    expect(ungrouped.stdout.split('\n')[0]).not.toMatch(/CONVERSATION/);
    expect(ungrouped.stderr).toMatch(/\(conversation, .*hidden to fit the window/);
    expect(ungrouped.stdout).not.toContain('Dana Admin, Sam Staff');

    const grouped = await msgctl(['me', 'messages', '--all', '--group-by', 'conversation'], { env: cliEnv(), tty: true, columns: 80 });
    expect(grouped.exitCode, grouped.stderr).toBe(0);
    const json = jsonLines((await msgctl(['me', 'messages', '--all', '--group-by', 'conversation', '--json'], { env: cliEnv() })).stdout);
    const lines = grouped.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME .* ID .* BODY$/);
    // Each conversation once, on a line of its own, before its messages' rows, in the service's order:
    // named as the column would, with its channel and its id.
    const heading = (m: any) => `${m.patient?.name ?? m.conversation.title}${m.channel ? ` (${m.channel})` : ''} · ${m.conversation.id}`;
    const headings = json.map(heading).filter((t, i, all) => t !== all[i - 1]);
    expect(headings.some((h) => h.startsWith('Dana Admin, Sam Staff'))).toBe(true);
    expect(lines.filter((line) => headings.includes(line))).toEqual(headings);
    for (const [i, m] of json.entries()) {
      const row = lines.findIndex((line) => line.includes(m.id));
      const at = lines.lastIndexOf(heading(m), row);
      expect(at, `message ${i} under its conversation`).toBeGreaterThan(0);
      expect(lines.slice(at + 1, row).every((line) => !headings.includes(line))).toBe(true);
    }
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    // The headings show the conversation: it is not named as hidden.
    expect(grouped.stderr).not.toMatch(/conversation, /);
    expect(grouped.stderr).toMatch(/\(from, .*hidden to fit the window/);
  });

  it('gets one message, and exits 4 for one outside Dana\'s conversations', async () => {
    const mine = sandbox.current.sb.db.messages.find((m) => m.conversationId === chatWith('Dana Admin, Sam Staff').id)!;
    const r = await msgctl(['me', 'messages', 'get', mine.id, '--json'], { env: cliEnv() });
    expect(jsonLines(r.stdout)[0].body).toBe(mine.body);
    const other = sandbox.current.sb.db.messages.find((m) => m.conversationId === chatWith('Sam Staff, Riley Nurse').id)!;
    expect((await msgctl(['me', 'messages', 'get', other.id], { env: cliEnv() })).exitCode).toBe(4);
  });

  it('sends from an argument or stdin, once per --idempotency-key', async () => {
    const chat = chatWith('Dana Admin, Sam Staff');
    const sent = await msgctl(['me', 'send', chat.id, 'Lunch at noon?', '--json'], { env: cliEnv() });
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(jsonLines(sent.stdout)[0]).toMatchObject({ body: 'Lunch at noon?', sender: { name: 'Dana Admin' }, sent_via: 'msgctl CLI' });

    const key = randomUUID();
    const piped = await msgctl(['me', 'send', chat.id, '-', '--idempotency-key', key], { env: cliEnv(), input: 'From stdin\n' });
    expect(piped.exitCode, piped.stderr).toBe(0);
    const again = await msgctl(['me', 'send', chat.id, '-', '--idempotency-key', key], { env: cliEnv(), input: 'From stdin\n' });
    expect(again.stdout).toBe(piped.stdout);
    expect(sandbox.current.sb.db.messages.filter((m) => m.body === 'From stdin')).toHaveLength(1);
  });

  it('refuses a body over 1,600 characters locally (exit 2) and exits 4 for a chat Dana is not in', async () => {
    const chat = chatWith('Dana Admin, Sam Staff');
    const long = await msgctl(['me', 'send', chat.id, 'x'.repeat(1601)], { env: cliEnv() });
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toMatch(/1601 characters/);
    const foreign = await msgctl(['me', 'send', chatWith('Sam Staff, Riley Nurse').id, 'hi'], { env: cliEnv() });
    expect(foreign.exitCode).toBe(4);
  });
});
