/**
 * What the sandbox keeps between requests to answer reads faster (an API
 * key's principal, rows and texts of GET /patients) must never outlive a
 * write: every change shows on the very next request.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import type { ApiKeyRecord } from '../../src/sandbox/domain/records.js';

const sandbox = useSandbox();
const auth = (token = sandbox.current.credentials.api_key) => ({ authorization: `Bearer ${token}` });

type Page = { data: { id: string; first_name: string; conversation_count: number; sms_opted_out: boolean }[]; pagination: { next_cursor: string | null; has_more: boolean } };

async function page(query = 'page[limit]=100'): Promise<Page> {
  const res = await fetch(`${sandbox.current.baseUrl}/patients?${query}`, { headers: auth() });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  return (await res.json()) as Page;
}

const send = (method: string, path: string, body: unknown) =>
  fetch(`${sandbox.current.baseUrl}${path}`, {
    method,
    headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });

describe('read caches', () => {
  it('GET /patients shows a created, changed, messaged, opted-out or deleted patient on the next request', async () => {
    const before = await page();
    expect(await page()).toEqual(before);

    const created = await send('POST', '/patients', { first_name: 'Cache', last_name: 'Probe', phone: '+12125550999' });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    expect((await page()).data.map((p) => p.id)).toContain(id);

    expect((await send('PATCH', `/patients/${id}`, { first_name: 'Renamed' })).status).toBe(200);
    expect((await page()).data.find((p) => p.id === id)?.first_name).toBe('Renamed');

    expect((await send('POST', '/patient-messages', { to: { phone: '+12125550999' }, body: 'hello' })).status).toBe(201);
    expect((await page()).data.find((p) => p.id === id)?.conversation_count).toBe(1);

    const stop = await fetch(`${sandbox.current.origin}/_sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: '+12125550999', to: '+15555550100', body: 'STOP' }),
    });
    expect(stop.status).toBe(201);
    expect((await page()).data.find((p) => p.id === id)?.sms_opted_out).toBe(true);

    const deleted = await fetch(`${sandbox.current.baseUrl}/patients/${id}`, { method: 'DELETE', headers: auth() });
    expect(deleted.status).toBe(204);
    expect((await page()).data.map((p) => p.id)).not.toContain(id);
  });

  it('serves each patient of a page as GET /patients/{id} does (the page splices kept texts)', async () => {
    for (let round = 0; round < 2; round++) {
      const listed = await page();
      expect(listed.data.length).toBeGreaterThan(3);
      for (const p of listed.data) {
        const one = await fetch(`${sandbox.current.baseUrl}/patients/${p.id}`, { headers: auth() });
        expect(await one.json()).toEqual(p);
      }
    }
  });

  it('serves a stored patient changed behind its kept text (no object in memory) as stored now', async () => {
    const { sb } = sandbox.current;
    const id = randomUUID();
    const orgId = sandbox.current.credentials.organization_id;
    // insertOnly: no object is remembered, so every page reads the stored text.
    sb.db.patients.insertOnly({
      id, orgId, first_name: 'Stored', last_name: 'Only', date_of_birth: null, phone: '+12125550998', email: null, mrn: null,
      optedOutFrom: [], created_at: '2000-01-01T00:00:00.000Z', deleted_at: null,
    });
    sb.store.settle();
    const first = await page('page[limit]=1');
    expect(first.data[0]).toMatchObject({ id, first_name: 'Stored', conversation_count: 0 });
    expect((await page('page[limit]=1')).data).toEqual(first.data);

    sb.store.sql.prepare(`UPDATE patients SET data = json_set(data, '$.first_name', 'Changed') WHERE id = ?`).run(id);
    expect((await page('page[limit]=1')).data[0]).toMatchObject({ id, first_name: 'Changed', conversation_count: 0 });

    sb.db.conversations.insertOnly({
      id: randomUUID(), orgId, type: 'patient', title: 'Changed Only', created_at: new Date().toISOString(), participantIds: [], joinedAt: {},
      patientId: id, phoneNumberId: null, channel: 'secure', last_message_at: null, seen_at: null,
    });
    sb.store.settle();
    expect((await page('page[limit]=1')).data[0]).toMatchObject({ id, first_name: 'Changed', conversation_count: 1 });
  });

  it('pages the same way asked twice, each next cursor usable and unforgeable', async () => {
    const first = await page('page[limit]=2');
    const again = await page('page[limit]=2');
    expect(again.data).toEqual(first.data);
    expect(first.pagination.has_more).toBe(true);
    const second = await page(`page[limit]=2&page[after]=${encodeURIComponent(again.pagination.next_cursor!)}`);
    expect(second.data[0]!.id).not.toBe(first.data[1]!.id);
    const tampered = await fetch(`${sandbox.current.baseUrl}/patients?page[after]=${again.pagination.next_cursor!}x`, { headers: auth() });
    expect(tampered.status).toBe(400);
  });

  it('an API key removed or narrowed in the store is refused on the next request', async () => {
    const { sb, credentials } = sandbox.current;
    const token = credentials.limited_api_key;
    expect((await fetch(`${sandbox.current.baseUrl}/patients?page[limit]=1`, { headers: auth(token) })).status).toBe(200);

    // Changed in place, as domain code does: written back at the end of the turn.
    const key = sb.db.apiKeys.where('token = ?', [token])[0] as ApiKeyRecord;
    const scopes = key.scopes;
    key.scopes = scopes.filter((s) => s !== 'patients.read');
    const narrowed = await fetch(`${sandbox.current.baseUrl}/patients?page[limit]=1`, { headers: auth(token) });
    expect(narrowed.status).toBe(403);

    const again = sb.db.apiKeys.where('token = ?', [token])[0] as ApiKeyRecord;
    again.scopes = scopes;
    again.deletedAt = new Date().toISOString();
    const removed = await fetch(`${sandbox.current.baseUrl}/patients?page[limit]=1`, { headers: auth(token) });
    expect(removed.status).toBe(401);

    const restored = sb.db.apiKeys.where('token = ?', [token])[0] as ApiKeyRecord;
    restored.deletedAt = null;
    expect((await fetch(`${sandbox.current.baseUrl}/patients?page[limit]=1`, { headers: auth(token) })).status).toBe(200);
  });
});
