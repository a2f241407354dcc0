import { describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, jsonLines } from '../helpers/in-process.js';
import { accessTokens } from '../../src/sandbox/domain/access-tokens.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current);
const db = () => sandbox.current.sb.db;
const patientByPhone = (phone: string) =>
  db().patients.filter((p) => p.phone === phone && p.orgId === sandbox.current.credentials.organization_id && !p.deleted_at);
const messagesTo = (patientId: string) => db().messages.filter((m) => m.patientId === patientId);
const ada = () => patientByPhone('+15555550123')[0]!;

describe('msgctl send', () => {
  it.each([
    ['(555) 555-0123', '+15555550123'],
    ['555.555.0199', '+15555550199'],
    ['+1 555 555 0177', '+15555550177'],
  ])('sends to %s as %s and prints the response as one JSON line', async (typed, e164) => {
    const existed = patientByPhone(e164).length > 0;
    const r = await msgctl(['send', '--to', typed, `Hello ${typed}`, '--json'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const [result] = jsonLines(r.stdout);
    expect(result.patient_created).toBe(!existed);
    expect(result.message).toMatchObject({ body: `Hello ${typed}`, channel: 'secure', delivery: { status: 'queued' } });
    const [patient] = patientByPhone(e164);
    expect(patient!.id).toBe(result.message.patient.id);
    expect(messagesTo(patient!.id).map((m) => m.body)).toContain(`Hello ${typed}`);
  });

  it('sends to a patient id, sms from another clinic number, and prints a readable line when piped', async () => {
    const r = await msgctl(['send', '--to', ada().id, '--channel', 'sms', '--from', '(555) 555-0110', 'By id'], { env: env() });
    expect(r.exitCode).toBe(0);
    const [id, patientId, channel, status] = r.stdout.trim().split('\t');
    expect([patientId, channel, status]).toEqual([ada().id, 'sms', 'queued']);
    const stored = db().messages.get(id!)!;
    expect(stored).toMatchObject({ body: 'By id', channel: 'sms', patientId: ada().id });
    expect(db().phoneNumbers.get(stored.phoneNumberId!)!.number).toBe('+15555550110');
  });

  it('reads the body from "-" (stdin), from piped stdin without BODY, and from --body-file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-body-'));
    const file = join(dir, 'note.txt');
    writeFileSync(file, 'From a file\nwith two lines');
    const runs = [
      await msgctl(['send', '--to', ada().id, '-', '--json'], { env: env(), input: 'From stdin dash\n' }),
      await msgctl(['send', '--to', ada().id, '--json'], { env: env(), input: 'From piped stdin\n' }),
      await msgctl(['send', '--to', ada().id, '--body-file', file, '--json'], { env: env() }),
      await msgctl(['send', '--to', ada().id, '--body-file', '-', '--json'], { env: env(), input: 'From body-file dash' }),
    ];
    const bodies = runs.map((r) => {
      expect(r.exitCode, r.stderr).toBe(0);
      return db().messages.get(jsonLines(r.stdout)[0].message.id)!.body;
    });
    expect(bodies).toEqual(['From stdin dash', 'From piped stdin', 'From a file\nwith two lines', 'From body-file dash']);
  });

  it('--dry-run prints the request and sends nothing', async () => {
    const before = sandbox.current.testing.requests().length;
    const messages = db().messages.size;
    const r = await msgctl(['send', '--to', '555 555 0123', 'Just looking', '--dry-run', '--json'], { env: env() });
    expect(r.exitCode).toBe(0);
    const [request] = jsonLines(r.stdout);
    expect(request).toMatchObject({ method: 'POST', path: '/patient-messages', body: { to: { phone: '+15555550123' }, body: 'Just looking' } });
    expect(request.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toMatch(/nothing was sent/i);
    expect(db().messages.size).toBe(messages);
    expect(sandbox.current.testing.requests().length).toBe(before);
  });

  it('refuses a 1,601-character body with exit 2 before any request', async () => {
    const before = sandbox.current.testing.requests().length;
    const messages = db().messages.size;
    const r = await msgctl(['send', '--to', ada().id, 'x'.repeat(1601)], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/1601 characters; the limit is 1600/);
    expect(r.stdout).toBe('');
    expect(db().messages.size).toBe(messages);
    expect(sandbox.current.testing.requests().length).toBe(before);
  });

  it('counts emoji as one character each: 1,600 of them are accepted', async () => {
    const r = await msgctl(['send', '--to', ada().id, '--json'], { env: env(), input: '😀'.repeat(1600) });
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it.each([
    [['--to', '555-0123', 'hi'], /neither a patient id nor a phone number/],
    [['--to', '(555) 555-01234', 'hi'], /neither a patient id nor a phone number/],
    [['--to', '5555550188', '--dob', '1990-02-30', 'hi'], /date of birth "1990-02-30"/],
    [['--to', '5555550188', '--dob', 'yesterday', 'hi'], /date of birth "yesterday"/],
    [['--to', '5555550188', '--channel', 'fax', 'hi'], /Allowed: secure, sms/],
    [['--to', '5555550188', '--idempotency-key', 'not-a-uuid', 'hi'], /must be a UUID/],
    [['--to', '5555550188'], /message body is empty/],
  ])('exits 2 and sends nothing for %j', async (args, message) => {
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['send', ...args], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(sandbox.current.testing.requests().length).toBe(before);
    expect(patientByPhone('+15555550188')).toHaveLength(0);
  });

  it('replays a send with the same --idempotency-key: one message, same id', async () => {
    const key = randomUUID();
    const args = ['send', '--to', ada().id, 'Only once', '--idempotency-key', key, '--json'];
    const first = await msgctl(args, { env: env() });
    const second = await msgctl(args, { env: env() });
    expect([first.exitCode, second.exitCode]).toEqual([0, 0]);
    expect(jsonLines(second.stdout)[0].message.id).toBe(jsonLines(first.stdout)[0].message.id);
    expect(db().messages.filter((m) => m.body === 'Only once')).toHaveLength(1);
  });

  it('says a replay was already sent, on a terminal and piped, instead of the Sent line', async () => {
    const key = randomUUID();
    const args = ['send', '--to', ada().id, 'Replayed reminder', '--idempotency-key', key];
    const first = await msgctl(args, { env: env(), tty: true });
    expect(first.stdout).toMatch(/^Sent secure message/);
    const again = await msgctl(args, { env: env(), tty: true });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/^Already sent \(replayed\), nothing sent again: secure message [0-9a-f-]{36}/);
    expect(again.stdout).not.toMatch(/^Sent /);
    const piped = await msgctl(args, { env: env() });
    expect(piped.stderr).toContain('Already sent (replayed)');
    expect(piped.stdout.split('\t')).toHaveLength(4);
    expect(db().messages.filter((m) => m.body === 'Replayed reminder')).toHaveLength(1);
  });

  it('exits 5 with idempotency_key_reused when the same key carries a different body', async () => {
    const key = randomUUID();
    expect((await msgctl(['send', '--to', ada().id, 'First body', '--idempotency-key', key], { env: env() })).exitCode).toBe(0);
    const r = await msgctl(['send', '--to', ada().id, 'Second body', '--idempotency-key', key], { env: env() });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/idempotency_key_reused/);
    expect(r.stderr).toMatch(/request id: [0-9a-f-]{36}/);
    expect(db().messages.filter((m) => m.body === 'Second body')).toHaveLength(0);
  });

  it('creates the patient with the given details when the phone is new', async () => {
    const r = await msgctl(
      ['send', '--to', '555-555-0166', '--first-name', 'Nia', '--last-name', 'New', '--dob', '03/07/1980', '--month-first', '--mrn', 'N-166', '--email', 'nia@example.com', 'Welcome', '--json'],
      { env: env() },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ patient_created: true, conversation_created: true, message: { patient: { name: 'Nia New' } } });
    expect(patientByPhone('+15555550166')).toEqual([
      expect.objectContaining({ first_name: 'Nia', last_name: 'New', date_of_birth: '1980-03-07', mrn: 'N-166', email: 'nia@example.com' }),
    ]);
  });

  it('a message to the failing test number ends failed with carrier_rejected', async () => {
    const r = await msgctl(['send', '--to', '+15555550190', '--channel', 'sms', 'Will fail', '--json'], { env: env() });
    const id = jsonLines(r.stdout)[0].message.id;
    await expect.poll(() => db().messages.get(id)!.delivery!.status, { timeout: 5000 }).toBe('failed');
    expect(db().messages.get(id)!.delivery!.error).toMatchObject({ code: 'carrier_rejected' });
  });

  it('sends as the org admin with an OAuth token: staff sender, app label, conversation marked read', async () => {
    const { sb, credentials } = sandbox.current;
    const admin = db().users.find((u) => u.role === 'admin' && u.orgId === credentials.organization_id)!;
    const token = `mat_test_${randomUUID()}`;
    accessTokens(sb.store).put({
      id: token, orgId: admin.orgId, userId: admin.id, clientId: credentials.oauth_client_id,
      scopes: ['messages.write'], expiresMs: sb.clock.now() + 3_600_000, revoked: false, grantId: randomUUID(),
    });
    const r = await msgctl(['send', '--to', ada().id, 'From Dana', '--json'], {
      env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: token }),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const { message } = jsonLines(r.stdout)[0];
    expect(message).toMatchObject({ sender: { kind: 'staff', id: admin.id, name: 'Dana Admin' }, sent_via: 'msgctl CLI' });
    expect(db().conversations.get(message.conversation.id)!.seen_at).not.toBeNull();
  });

  it('a patient texting STOP blocks sms from that number until START', async () => {
    const text = (body: string) =>
      fetch(`${sandbox.current.origin}/_sandbox/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: '(555) 555-0124', to: '+15555550100', body }),
      });
    const grace = patientByPhone('+15555550124')[0]!;
    const stop = await text(' Stop ');
    expect(stop.status).toBe(201);
    expect(await stop.json()).toEqual({ id: expect.any(String), from: '+15555550124', to: '+15555550100', body: ' Stop ', created_at: expect.any(String) });
    const refused = await msgctl(['send', '--to', grace.id, '--channel', 'sms', 'Reminder'], { env: env() });
    expect(refused.exitCode).toBe(6);
    expect(refused.stderr).toMatch(/patient_opted_out/);
    const other = await msgctl(['send', '--to', grace.id, '--channel', 'sms', '--from', '+15555550110', 'From Recalls'], { env: env() });
    expect(other.exitCode, other.stderr).toBe(0);
    expect((await text('START')).status).toBe(201);
    const again = await msgctl(['send', '--to', grace.id, '--channel', 'sms', 'Reminder'], { env: env() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(db().messages.filter((m) => m.patientId === grace.id && m.body === 'Reminder')).toHaveLength(1);
  });
});
