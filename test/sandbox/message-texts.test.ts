/**
 * GET /patient-messages pages are spliced from stored message texts
 * (domain/message-text.ts): every message must read exactly as
 * GET /patient-messages/{id} builds it from the record, whatever changed
 * since it was stored (delivery, its conversation read, its patient renamed)
 * and for rows without a stored text (written by an older msgctl).
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ seedMessages: 400, timeScale: 0.01 });
const auth = () => ({ authorization: `Bearer ${sandbox.current.credentials.api_key}` });
type Page = { data: { id: string; unread: boolean; delivery: { status: string } | null; patient?: { name: string } }[]; pagination: { next_cursor: string | null } };

async function everyMessage(query: string): Promise<Page['data']> {
  const all: Page['data'] = [];
  let cursor: string | null = null;
  do {
    const res = await fetch(`${sandbox.current.baseUrl}/patient-messages?${query}&page[limit]=100${cursor ? `&page[after]=${encodeURIComponent(cursor)}` : ''}`, { headers: auth() });
    expect(res.status).toBe(200);
    const page = (await res.json()) as Page;
    all.push(...page.data);
    cursor = page.pagination.next_cursor;
  } while (cursor);
  return all;
}

async function expectEachAsRetrieved(messages: Page['data']) {
  for (const m of messages) {
    const one = await fetch(`${sandbox.current.baseUrl}/patient-messages/${m.id}`, { headers: auth() });
    expect(await one.json()).toEqual(m);
  }
}

const post = (path: string, body: unknown, origin = false) =>
  fetch(`${origin ? sandbox.current.origin : sandbox.current.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });

describe('patient message pages from stored texts', () => {
  it('serve every message as GET /patient-messages/{id} does, after changes around it', async () => {
    const { sb } = sandbox.current;
    for (const body of [
      { to: { phone: '+15555550123' }, body: 'Plain sms "quoted" \\ and ✓ emoji 🎉' },
      { to: { phone: '+15555550190' }, body: 'to the failing number' },
      { to: { phone: '+15555550124' }, body: 'secure one', channel: 'secure' },
      { to: { phone: '+12125550777' }, body: 'a new patient', patient: { first_name: 'New', last_name: 'Person' } },
    ]) expect((await post('/patient-messages', body)).status).toBe(201);
    expect((await post('/_sandbox/inbound', { from: '+15555550123', to: '+15555550100', body: 'Thanks!\nbye\u0007' }, true)).status).toBe(201);
    // Deliveries run at 1/100 of their time, as background steps: wait until none is left (not a fixed
    // time), so no status changes between the page and the single reads below.
    const pendingSteps = () => (sb as unknown as { timers: Set<unknown> }).timers.size;
    await expect.poll(pendingSteps, { timeout: 10_000, interval: 20 }).toBe(0);

    const before = await everyMessage('after=2000-01-01');
    expect(before.length).toBeGreaterThan(400);
    expect(before.some((m) => m.unread)).toBe(true);
    expect(before.some((m) => m.delivery?.status === 'failed')).toBe(true);
    await expectEachAsRetrieved(before);

    // Read a conversation, rename a patient: parts a stored text does not hold.
    const ada = sb.db.patients.where('phone = ?', ['+15555550123'])[0]!;
    const renamed = await fetch(`${sandbox.current.baseUrl}/patients/${ada.id}`, {
      method: 'PATCH', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Augusta' }),
    });
    expect(renamed.status).toBe(200);
    for (const c of sb.db.conversations.where('patient_id = ?', [ada.id])) c.seen_at = new Date(Date.now() + 60_000).toISOString();
    sb.store.changed();
    // Rows stored without a text (an older msgctl's file) are served from their records.
    sb.store.sql.prepare("UPDATE messages SET view = NULL WHERE rowid % 7 = 0").run();

    const after = await everyMessage('after=2000-01-01');
    expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect(after.filter((m) => m.patient?.name === 'Augusta Lovelace').length).toBeGreaterThan(0);
    await expectEachAsRetrieved(after);
    // Oldest first pages the same messages the other way round.
    expect((await everyMessage('after=2000-01-01&order=asc')).map((m) => m.id)).toEqual([...before.map((m) => m.id)].reverse());
  });

  it('a patient renamed between two pages of one walk reads with the new name on the next page', async () => {
    type WithPatient = Page['data'][number] & { patient?: { id: string; name: string } };
    const pageOf = async (cursor: string | null) => {
      const res = await fetch(`${sandbox.current.baseUrl}/patient-messages?after=2000-01-01&page[limit]=100${cursor ? `&page[after]=${encodeURIComponent(cursor)}` : ''}`, { headers: auth() });
      expect(res.status).toBe(200);
      return (await res.json()) as { data: WithPatient[]; pagination: { next_cursor: string | null } };
    };
    const first = await pageOf(null);
    const second = await pageOf(first.pagination.next_cursor);
    // A patient on both pages (the seeded traffic is long-tailed: the busiest write on every page).
    const onSecond = new Set(second.data.map((m) => m.patient?.id).filter(Boolean));
    const patient = first.data.find((m) => m.patient && onSecond.has(m.patient.id))!.patient!;
    const renamed = await fetch(`${sandbox.current.baseUrl}/patients/${patient.id}`, {
      method: 'PATCH', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Renamed' }),
    });
    expect(renamed.status).toBe(200);
    const again = await pageOf(first.pagination.next_cursor);
    const theirs = again.data.filter((m) => m.patient?.id === patient.id);
    expect(theirs.length).toBeGreaterThan(0);
    for (const m of theirs) expect(m.patient!.name).toMatch(/^Renamed /);
  });
});
