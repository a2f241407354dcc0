/**
 * `msgctl conversations list/get` against the sandbox: filters, activity
 * order, unread counts, the list's latest_message, isolation between
 * organizations, and a traversal that new messages cannot make repeat or
 * skip a conversation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox, withPageCap } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, jsonLines } from '../helpers/in-process.js';
import type { ConversationRecord, MessageRecord } from '../../src/sandbox/domain/records.js';
import { addConversation, addMessage, patientByMrn, staffSender } from '../helpers/messages-fixtures.js';

describe('conversations list/get', () => {
  const sandbox = useSandbox();
  const env = (extra: Record<string, string | undefined> = {}) => sandboxEnv(sandbox.current, extra);
  const c: Record<string, ConversationRecord> = {};
  const latest: Record<string, MessageRecord> = {};

  beforeAll(() => {
    const sb = sandbox.current.sb;
    const dana = staffSender(sb, 'dana@riverside.example');
    c.adaSms = addConversation(sb, 'A-1001', '+15555550100', 'sms');
    c.adaSecure = addConversation(sb, 'A-1001', '+15555550110', 'secure');
    c.grace = addConversation(sb, 'A-1002', '+15555550100', 'sms');
    c.frank = addConversation(sb, 'A-5001', '+15555550100', 'sms');
    c.other = addConversation(sb, 'L-1', '+15555550200', 'sms');
    const at = (h: number) => Date.parse('2026-04-01T12:00:00Z') + h * 3_600_000;
    addMessage(sb, c.adaSms, { at: at(0), from: 'patient', body: 'first' });
    addMessage(sb, c.adaSms, { at: at(1), from: 'patient', body: 'second' });
    latest.adaSms = addMessage(sb, c.adaSms, { at: at(2), from: 'patient', body: 'third, unread' });
    latest.adaSecure = addMessage(sb, c.adaSecure, { at: at(5), from: dana, body: 'secure note' });
    addMessage(sb, c.grace, { at: at(3), from: 'patient', body: 'hello' });
    latest.grace = addMessage(sb, c.grace, { at: at(4), from: dana, body: 'hi Grace' });
    latest.frank = addMessage(sb, c.frank, { at: at(6), from: 'patient', body: 'are my results in?' });
    latest.other = addMessage(sb, c.other, { at: at(7), from: 'patient', body: 'other org' });
    c.adaSms.seen_at = new Date(at(1)).toISOString(); // one unread: "third"
    c.grace.seen_at = new Date(at(10)).toISOString();
    c.frank.seen_at = null; // one unread
  });

  async function listed(args: string[], extra: Record<string, string | undefined> = {}) {
    const r = await msgctl(['conversations', 'list', '--json', ...args], { env: env(extra) });
    expect(r.exitCode, r.stderr).toBe(0);
    return jsonLines<any>(r.stdout);
  }
  const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id);
  const ids = (...keys: string[]) => keys.map((k) => c[k]!.id);

  it('lists patient conversations, most recently active first, with unread counts and the latest message', async () => {
    const rows = await listed([]);
    expect(idsOf(rows)).toEqual(ids('frank', 'adaSecure', 'grace', 'adaSms'));
    const frank = rows[0];
    expect(frank).toMatchObject({
      type: 'patient',
      organization_id: sandbox.current.credentials.organization_id,
      patient: { id: patientByMrn(sandbox.current.sb, 'A-5001').id, name: 'Frank Failing' },
      phone_number: { number: '+15555550100', team: 'Front Desk' },
      channel: 'sms',
      unread_count: 1,
      // Never read by staff: seen_at is the conversation's start (always a timestamp, §2.4).
      seen_at: sandbox.current.sb.db.conversations.get(frank!.id)!.created_at,
      last_message_at: latest.frank!.created_at,
      messages_in_range: null,
      latest_message: { id: latest.frank!.id, body: 'are my results in?' },
    });
    expect(rows.map((r) => r.unread_count)).toEqual([1, 0, 0, 1]);
  });

  it('--order asc, --limit and small pages', async () => {
    expect(idsOf(await listed(['--order', 'asc']))).toEqual(ids('adaSms', 'grace', 'adaSecure', 'frank'));
    expect(idsOf(await listed(['--limit', '2']))).toEqual(ids('frank', 'adaSecure'));
    expect(idsOf(await withPageCap(sandbox.current, 1, () => listed(['--all'])))).toEqual(ids('frank', 'adaSecure', 'grace', 'adaSms'));
  });

  it('filters by patient, clinic number, channel and unread', async () => {
    expect(idsOf(await listed(['--patient', patientByMrn(sandbox.current.sb, 'A-1001').id]))).toEqual(ids('adaSecure', 'adaSms'));
    expect(idsOf(await listed(['--phone-number', '(555) 555-0110']))).toEqual(ids('adaSecure'));
    expect(idsOf(await listed(['--channel', 'sms']))).toEqual(ids('frank', 'grace', 'adaSms'));
    expect(idsOf(await listed(['--unread']))).toEqual(ids('frank', 'adaSms'));
    expect(idsOf(await listed(['--unread', '--channel', 'sms', '--phone-number', '+15555550100', '--order', 'asc']))).toEqual(ids('adaSms', 'frank'));
    expect(await listed(['--phone-number', '+15555550199'])).toEqual([]);
  });

  it('another organization sees only its own', async () => {
    expect(idsOf(await listed([], { MSGCTL_API_KEY: sandbox.current.credentials.other_org_api_key }))).toEqual(ids('other'));
  });

  it('prints a table-free TSV when piped', async () => {
    const r = await msgctl(['conversations', 'list', '--patient', patientByMrn(sandbox.current.sb, 'A-5001').id], { env: env() });
    expect(r.stdout).toBe(
      [c.frank!.id, c.frank!.patientId, 'Frank Failing', '+15555550100', 'sms', latest.frank!.created_at, '1'].join('\t') + '\n',
    );
  });

  it('on an 80-column terminal the patient stays (whose conversation it is); the latest message goes first, and the note says so', async () => {
    const r = await msgctl(['conversations', 'list', '--patient', patientByMrn(sandbox.current.sb, 'A-5001').id], { env: env(), tty: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    const [header, row] = r.stdout.split('\n');
    expect(header).toMatch(/^ACTIVITY \(\S+\) +ID +PATIENT/);
    expect(row).toContain(c.frank!.id);
    expect(row).toContain('Frank Failing');
    expect(r.stderr).toMatch(/\(number, channel, unread, latest hidden to fit the window; --wide shows all\)/);
    const wide = await msgctl(['conversations', 'list', '--patient', patientByMrn(sandbox.current.sb, 'A-5001').id], { env: env(), tty: true, columns: 160 });
    expect(wide.stdout.split('\n')[0]).toMatch(/PATIENT .*LATEST$/);
  });

  it('get shows one conversation: unread count, no latest message (as in the spec\'s sample)', async () => {
    const r = await msgctl(['conversations', 'get', c.adaSms!.id, '--json'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({
      id: c.adaSms!.id, unread_count: 1, seen_at: c.adaSms!.seen_at, messages_in_range: null, latest_message: null,
      last_message_at: latest.adaSms!.created_at,
    });
    const plain = await msgctl(['conversations', 'get', c.adaSms!.id], { env: env() });
    expect(plain.stdout).toMatch(/^unread_count\t1$/m);
  });

  it('get: another organization\'s conversation is not found (exit 4); a non-UUID is refused locally (exit 2)', async () => {
    const other = await msgctl(['conversations', 'get', c.other!.id], { env: env() });
    expect(other.exitCode).toBe(4);
    expect(other.stderr).toMatch(/not_found/);
    expect((await msgctl(['conversations', 'get', randomUUID()], { env: env() })).exitCode).toBe(4);
    const before = sandbox.current.testing.requests().length;
    expect((await msgctl(['conversations', 'get', 'abc'], { env: env() })).exitCode).toBe(2);
    expect((await msgctl(['conversations', 'list', '--patient', 'ada'], { env: env() })).exitCode).toBe(2);
    expect((await msgctl(['conversations', 'list', '--phone-number', '12'], { env: env() })).exitCode).toBe(2);
    expect((await msgctl(['conversations', 'list', '--channel', 'fax'], { env: env() })).exitCode).toBe(2);
    expect(sandbox.current.testing.requests().length).toBe(before);
  });
});

describe('conversations list while messages arrive', () => {
  const sandbox = useSandbox({ seedMessages: 3000 });

  it('lists each conversation once even as new messages reorder them', { timeout: 60_000 }, async () => {
    const sb = sandbox.current.sb;
    const all = sb.db.conversations.filter((x) => x.type === 'patient' && x.orgId === sandbox.current.credentials.organization_id && !!x.last_message_at);
    expect(all.length).toBeGreaterThan(50);
    const requestsBefore = sandbox.current.testing.requests().length;
    let done = false;
    const writer = (async () => {
      while (!done && sandbox.current.testing.requests().length < requestsBefore + 2) await new Promise((r) => setTimeout(r, 1));
      // Bring conversations from the bottom of the list to the top, one after another.
      const oldestFirst = [...all].sort((a, b) => a.last_message_at!.localeCompare(b.last_message_at!));
      for (let i = 0; !done && i < oldestFirst.length; i++) {
        addMessage(sb, oldestFirst[i]!, { from: 'patient', body: `bump ${i}` });
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const r = await withPageCap(sandbox.current, 2, () => msgctl(['conversations', 'list', '--all', '--json'], { env: sandboxEnv(sandbox.current), timeout: 60_000 }));
    done = true;
    await writer;
    expect(r.exitCode, r.stderr).toBe(0);
    const printed = jsonLines<{ id: string }>(r.stdout).map((x) => x.id);
    expect(new Set(printed).size).toBe(printed.length);
    expect(new Set(printed)).toEqual(new Set(all.map((x) => x.id)));
  });
});
