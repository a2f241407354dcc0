/**
 * GET /patient-messages at the HTTP and domain level: parameter errors,
 * cursor rules, pages checked against a brute-force reference over the store
 * for random page sizes, and pages that read the same number of rows from the
 * store wherever they start in the list.
 *
 * 1,200 seeded messages (about 60 patients, 120 conversations, 400 in the
 * range below) with pages of 1–30 cross as many page, group and filter
 * boundaries per traversal as 20,000 messages with pages of 1–100 did, in a
 * tenth of the time.
 */
import { describe, expect, it, vi } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { findPrincipal } from '../../src/sandbox/domain/principal.js';
import { encodeCursor } from '../../src/sandbox/domain/paging.js';
import { readMessageQuery } from '../../src/sandbox/routes/message-query-params.js';
import { messagesPage } from '../../src/sandbox/domain/message-pages.js';
import type { ApiRequest } from '../../src/sandbox/http/route.js';
import type { MessageRecord } from '../../src/sandbox/domain/records.js';

const sandbox = useSandbox({ seedMessages: 1_200, seed: 7 });

async function get(path: string, query: Record<string, string | number | undefined>, key = sandbox.current.credentials.api_key) {
  const url = new URL(`${sandbox.current.baseUrl}${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
}

async function all(path: string, query: Record<string, string | number | undefined>, pageSize: () => number) {
  const out: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const r = await get(path, { ...query, 'page[limit]': pageSize(), 'page[after]': cursor });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.body.data);
    if (!r.body.pagination.has_more) {
      expect(r.body.pagination.next_cursor).toBeNull();
      return out;
    }
    cursor = r.body.pagination.next_cursor;
  }
}

function orgMessages(): MessageRecord[] {
  const { sb, credentials } = sandbox.current;
  return [...sb.db.messages.values()].filter(
    (m) => m.orgId === credentials.organization_id && sb.db.conversations.get(m.conversationId)?.type === 'patient',
  );
}

const byPosition = (a: MessageRecord, b: MessageRecord) => a.createdMs - b.createdMs || a.seq - b.seq;

/** What a list must return, computed the slow, obvious way. */
function reference(o: { afterMs: number; beforeMs: number; order: 'asc' | 'desc'; group: boolean; keep: (m: MessageRecord) => boolean }): string[] {
  const inRange = orgMessages().filter((m) => m.createdMs >= o.afterMs && m.createdMs < o.beforeMs).sort(byPosition);
  if (o.order === 'desc') inRange.reverse();
  if (!o.group) return inRange.filter(o.keep).map((m) => m.id);
  const groups = new Map<string, MessageRecord[]>();
  for (const m of inRange) groups.set(m.conversationId, [...(groups.get(m.conversationId) ?? []), m]);
  const latest = (list: MessageRecord[]) => [...list].sort(byPosition).at(-1)!;
  const ordered = [...groups.values()].sort((a, b) => byPosition(latest(a), latest(b)) * (o.order === 'asc' ? 1 : -1));
  return ordered.flat().filter(o.keep).map((m) => m.id);
}

function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('GET /patient-messages parameters', () => {
  it.each([
    [{ after: 'last week' }, 'invalid_request', 'after'],
    [{ after: '2026-02-30' }, 'invalid_request', 'after'],
    [{ after: '2026-01-01', before: '2026-01-01T10:00' }, 'invalid_request', 'before'],
    [{ after: '2026-01-01', order: 'newest' }, 'invalid_request', 'order'],
    [{ after: '2026-01-01', group_by: 'thread' }, 'invalid_request', 'group_by'],
    [{ patient_id: 'ada' }, 'invalid_request', 'patient_id'],
    [{ conversation_id: '123' }, 'invalid_request', 'conversation_id'],
  ])('%j → 400 %s naming %s', async (query, code, parameter) => {
    const r = await get('/patient-messages', query);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code, parameter });
    expect(r.body.detail).toContain(parameter);
  });

  it.each([0, 101, 'ten', 1.5])('page[limit]=%s → 400', async (limit) => {
    const r = await get('/patient-messages', { after: '2026-01-01', 'page[limit]': limit });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
  });

  it('q that does not parse → 400 invalid_query with the parser\'s message', async () => {
    const r = await get('/patient-messages', { after: '2026-01-01', q: '(refill' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_query' });
    expect(r.body.detail).toMatch(/position \d+/);
  });

  it('an API key needs after, patient_id or conversation_id; before alone is not a range', async () => {
    const r = await get('/patient-messages', { before: '2026-01-01' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('range_required');
    expect((await get('/patient-messages', { patient_id: orgMessages()[0]!.patientId! })).status).toBe(200);
    expect((await get('/patient-messages', { conversation_id: orgMessages()[0]!.conversationId })).status).toBe(200);
  });
});

describe('GET /patient-messages pages', () => {
  it('match a brute-force reference for random page sizes, both orders, both groupings and filters', { timeout: 120_000 }, async () => {
    const now = Date.now();
    const afterMs = now - 40 * 86_400_000;
    const beforeMs = now - 10 * 86_400_000;
    const random = rng(42);
    const filters: [string | undefined, (m: MessageRecord) => boolean][] = [
      [undefined, () => true],
      ['from:patient', (m) => m.senderKind === 'patient'],
      ['refill OR results', (m) => /refill|results/i.test(m.body)],
    ];
    for (const order of ['desc', 'asc'] as const) {
      for (const group of [false, true]) {
        for (const [q, keep] of filters) {
          const got = await all(
            '/patient-messages',
            { after: new Date(afterMs).toISOString(), before: new Date(beforeMs).toISOString(), order, group_by: group ? 'conversation' : undefined, q },
            () => 1 + Math.floor(random() * 30),
          );
          const expected = reference({ afterMs, beforeMs, order, group, keep });
          expect(expected.length).toBeGreaterThan(40);
          expect(got.map((m) => m.id), `${order} ${group} ${q}`).toEqual(expected);
        }
      }
    }
  });

  it('a retried page answers the same records', async () => {
    const first = await get('/patient-messages', { after: '2000-01-01', 'page[limit]': 5 });
    const cursor = first.body.pagination.next_cursor;
    const a = await get('/patient-messages', { after: '2000-01-01', 'page[limit]': 5, 'page[after]': cursor });
    const b = await get('/patient-messages', { after: '2000-01-01', 'page[limit]': 5, 'page[after]': cursor });
    expect(a.body.data.map((m: any) => m.id)).toEqual(b.body.data.map((m: any) => m.id));
  });

  it('a cursor only continues its own list, and only for its own organization', async () => {
    const first = await get('/patient-messages', { after: '2000-01-01', 'page[limit]': 5 });
    const cursor = first.body.pagination.next_cursor;
    const other = await get('/patient-messages', { after: '2001-01-01', 'page[limit]': 5, 'page[after]': cursor });
    expect(other.status).toBe(400);
    expect(other.body.detail).toMatch(/not a cursor for this list/);
    const otherOrg = await get('/patient-messages', { after: '2000-01-01', 'page[after]': cursor }, sandbox.current.credentials.other_org_api_key);
    expect(otherOrg.status).toBe(400);
    const junk = await get('/patient-messages', { after: '2000-01-01', 'page[after]': 'bm90LWEtY3Vyc29y' });
    expect(junk.status).toBe(400);
  });

  it('a page reads the same rows from the store wherever its cursor is (an index range, not a walk from the start)', () => {
    const { sb, credentials } = sandbox.current;
    const principal = findPrincipal(sb, credentials.api_key)!;
    const request = (query: Record<string, string>): ApiRequest => ({
      principal, query, params: {}, page: { limit: 100, after: query['page[after]'] ?? null }, body: {}, headers: {}, requestId: 'x', raw: {} as never,
    });
    const query = readMessageQuery(request({ after: '2000-01-01' }), sb);
    const timeline = sb.db.messages.where('1', [], 'created_ms, id');
    expect(timeline.length).toBeGreaterThan(1_000);
    const cursorAt = (m: MessageRecord) =>
      encodeCursor(sb, { list: query.list, key: m.createdMs, id: m.id, extra: { at: { ms: m.createdMs, id: m.id } } });
    const rowsRead = (cursor: string | undefined) => {
      const where = vi.spyOn(sb.db.messages, 'where');
      try {
        const q = { after: '2000-01-01', ...(cursor ? { 'page[after]': cursor } : {}) };
        const page = messagesPage(sb, request(q).page, readMessageQuery(request(q), sb));
        expect(page.data).toHaveLength(100);
        return where.mock.results.reduce((n, r) => n + (r.value as unknown[]).length, 0);
      } finally {
        where.mockRestore();
      }
    };
    const near = rowsRead(undefined);
    // Newest first: a cursor 200 rows from the oldest end is past five sixths of the list.
    const deep = rowsRead(cursorAt(timeline[200]!));
    // Chunks of 101, then 202 (team-chat messages in the range are skipped): a walk from the
    // start of the list would read the 1,000 rows before the cursor as well.
    expect(near).toBeLessThanOrEqual(303);
    expect(deep).toBeLessThanOrEqual(303);
  });
});
