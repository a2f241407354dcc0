/**
 * Rules the sandbox applies the same way on every endpoint (issue 14):
 * the credential-less inbound answer names no patient, null and unknown
 * body fields, and id as the tiebreaker of equal creation times.
 */
import { describe, expect, it, vi } from 'vitest';
import { apiCall, useSandbox } from '../helpers/sandbox.js';
import { staffWorld } from '../helpers/staff-world.js';

const sandbox = useSandbox();

const call = (method: string, path: string, body?: unknown, token = sandbox.current.credentials.api_key) => apiCall(sandbox.current, method, path, token, body);

describe('/_sandbox/inbound', () => {
  it('answers with what the caller sent and the message id, never the patient who has that phone', async () => {
    // Lakeside's Lou shares Ada's phone; anyone (no credential) can post to Lakeside's number.
    const res = await fetch(`${sandbox.current.origin}/_sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: '(555) 555-0123', to: '+15555550200', body: 'Who am I?' }),
    });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      id: expect.any(String),
      from: '+15555550123',
      to: '+15555550200',
      body: 'Who am I?',
      created_at: expect.any(String),
    });
    expect(text).not.toMatch(/Lou|Lakeside|patient/i);
  });
});

describe('request bodies: one rule for unknown fields and for null', () => {
  it('refuses an unknown field and a null in a non-nullable field on every endpoint that takes a body', async () => {
    const patient = (await call('POST', '/patients', { first_name: 'Una', last_name: 'Known', phone: '+15555550177' })).body;
    const campaign = (await call('POST', '/campaigns', { name: 'Recall', body: 'Time for a check-up.' })).body;
    const cases: [string, string, Record<string, unknown>, string][] = [
      // method, path, body, the field the problem must name
      ['POST', '/patient-messages', { to: { patient_id: patient.id }, body: 'Hi', chanel: 'sms' }, '/chanel'],
      ['POST', '/patient-messages', { to: { patient_id: patient.id, mrn: 'A-1' }, body: 'Hi' }, '/to/mrn'],
      ['POST', '/patients', { first_name: 'A', last_name: 'B', phone: '+15555550178', nickname: 'Al' }, '/nickname'],
      ['PATCH', `/patients/${patient.id}`, { middle_name: 'Q' }, '/middle_name'],
      ['POST', '/campaigns', { name: 'X', body: 'Y', interval: 5 }, '/interval'],
      ['PATCH', `/campaigns/${campaign.id}`, { status: 'running' }, '/status'],
      ['POST', `/campaigns/${campaign.id}/recipients`, { patient_ids: [patient.id], note: 'x' }, '/note'],
      ['POST', `/campaigns/${campaign.id}/pause`, { reason: 'lunch' }, '/reason'],
      ['POST', '/patient-imports', { rows: [{ first_name: 'A', last_name: 'B', phone: '+15555550179' }], dry_run: true }, '/dry_run'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(res.body.field_errors, `${method} ${path}`).toContainEqual(expect.objectContaining({ path: field, code: 'unknown_field' }));
    }
    const nulls: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/patient-messages', { to: { patient_id: patient.id }, body: 'Hi', from: null }, '/from'],
      ['POST', '/patient-messages', { to: { phone: '+15555550180' }, body: 'Hi', patient: { mrn: null } }, '/patient/mrn'],
      ['POST', '/patients', { first_name: 'A', last_name: 'B', phone: '+15555550181', email: null }, '/email'],
      ['PATCH', `/patients/${patient.id}`, { first_name: null }, '/first_name'],
      ['POST', '/campaigns', { name: 'X', body: 'Y', send_interval_seconds: null }, '/send_interval_seconds'],
      ['PATCH', `/campaigns/${campaign.id}`, { archived: null }, '/archived'],
      ['POST', `/campaigns/${campaign.id}/recipients`, { patient_ids: null }, '/patient_ids'],
      ['POST', '/patient-imports', { rows: null }, '/rows'],
    ];
    for (const [method, path, body, field] of nulls) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(res.body.field_errors, `${method} ${path}`).toContainEqual(expect.objectContaining({ path: field, code: 'not_nullable' }));
    }
    // Where the spec makes a field nullable, null is a value: it clears the field.
    const cleared = await call('PATCH', `/patients/${patient.id}`, { phone: null, email: 'una@example.com' });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ phone: null, email: 'una@example.com' });
    expect(sandbox.current.sb.db.patients.filter((p) => p.first_name === 'A')).toHaveLength(0);
  });
});

describe('order: same-millisecond records by id (api-spec §4.12)', () => {
  /** Every id of a list, walking its pages three records at a time. */
  async function walk(path: string, token?: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const after: string = cursor ? `&page[after]=${encodeURIComponent(cursor)}` : '';
      const res = await call('GET', `${path}${sep}page[limit]=3${after}`, undefined, token);
      expect(res.status, path).toBe(200);
      ids.push(...res.body.data.map((r: { id: string }) => r.id));
      cursor = res.body.pagination.next_cursor;
    } while (cursor);
    return ids;
  }

  it('breaks ties of creation time by id in conversation messages, replies, campaigns and webhook endpoints', async () => {
    const world = staffWorld(sandbox.current);
    const token = world.mintToken(world.dana, ['conversations:read', 'messages:read', 'messages.read', 'messages.write']);
    const chat = world.addConversation([world.dana, world.sam]);
    const campaigns: string[] = [];
    const endpoints: string[] = [];
    const frozen = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(frozen);
    let first: { id: string };
    let messages: string[];
    let replies: string[];
    try {
      first = world.addMessage(chat, world.sam, 'first');
      messages = [first.id];
      replies = [];
      for (let i = 0; i < 8; i++) messages.push(world.addMessage(chat, world.sam, `m${i}`).id);
      for (let i = 0; i < 8; i++) {
        const reply = world.addMessage(chat, world.dana, `r${i}`, first as never).id;
        replies.push(reply);
        messages.push(reply);
      }
      for (let i = 0; i < 8; i++) campaigns.push((await call('POST', '/campaigns', { name: `Tie ${i}`, body: 'Same millisecond.' })).body.id);
      for (let i = 0; i < 8; i++) {
        endpoints.push((await call('POST', '/webhook-endpoints', { url: `https://hooks.example/${i}` }, token)).body.id);
      }
    } finally {
      now.mockRestore();
    }
    const byId = (ids: string[]) => [...ids].sort();
    // Insertion order is not id order (random UUIDs), or the test proves nothing.
    expect(messages).not.toEqual(byId(messages));
    expect(await walk(`/conversations/${chat.id}/messages`, token)).toEqual(byId(messages));
    expect(await walk(`/messages/${first.id}/replies`, token)).toEqual(byId(replies));
    const listed = (await walk('/campaigns')).filter((id) => campaigns.includes(id));
    expect(listed).toEqual(byId(campaigns));
    expect((await walk('/webhook-endpoints', token)).filter((id) => endpoints.includes(id))).toEqual(byId(endpoints));
  });
});
