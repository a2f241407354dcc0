/**
 * Ids that order like creation (issue 31, item 4): with the clock standing
 * still, so that every record is created in one millisecond, a client pages
 * each list while more records arrive between its pages, and must be served
 * every record exactly once. With random ids a record made after the client's
 * cursor could sort before it (same created_at, smaller id) and never be
 * served.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SCOPES } from '../../src/contract/api.js';
import { TimeOrderedIds } from '../../src/sandbox/time-ordered-ids.js';
import { apiCall, useSandbox } from '../helpers/sandbox.js';
import { staffWorld } from '../helpers/staff-world.js';

const sandbox = useSandbox();

beforeEach(() => {
  // Only Date: the sandbox's timers and sockets keep real time.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-05-04T10:00:00.000Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A request that must succeed: its body. */
async function call(method: string, path: string, token: string, body?: unknown) {
  const answer = await apiCall(sandbox.current, method, path, token, body);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

/**
 * Pages `list` (oldest first) 3 records at a time; after each of the first 13
 * pages, `create` adds 4 more records. Returns the ids served, in order, and
 * every id the list holds at the end.
 */
async function pageWhileCreating(list: string, token: string, create: (i: number) => Promise<void>) {
  let made = 0;
  const more = async (n: number) => {
    for (let i = 0; i < n; i++) await create(made++);
  };
  await more(6);
  const served: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; ; page++) {
    const sep = list.includes('?') ? '&' : '?';
    const answer = await call('GET', `${list}${sep}page[limit]=3${cursor ? `&page[after]=${encodeURIComponent(cursor)}` : ''}`, token);
    served.push(...answer.data.map((r: { id?: string; message_id?: string }) => r.id));
    // Four new records per page of three: the list grows ahead of the client until creating stops.
    if (page < 12) await more(4);
    if (!answer.pagination.has_more) {
      expect(page).toBeGreaterThanOrEqual(12);
      break;
    }
    cursor = answer.pagination.next_cursor;
  }
  const all: string[] = [];
  let next: string | null = null;
  do {
    const answer = await call('GET', `${list}${list.includes('?') ? '&' : '?'}page[limit]=100${next ? `&page[after]=${encodeURIComponent(next)}` : ''}`, token);
    all.push(...answer.data.map((r: { id: string }) => r.id));
    next = answer.pagination.next_cursor;
  } while (next);
  return { served, all };
}

describe('records created in one millisecond, while a client pages', () => {
  it('share one created_at, and each later one has a greater id', async () => {
    const key = sandbox.current.credentials.api_key;
    const a = await call('POST', '/patients', key, { first_name: 'Same', last_name: 'Instant', phone: '+15555550171' });
    const b = await call('POST', '/patients', key, { first_name: 'Same', last_name: 'Instant', phone: '+15555550172' });
    expect(a.created_at).toBe(b.created_at);
    expect(a.id < b.id).toBe(true);
  });

  it.each([
    ['patients', '/patients'],
    ['campaigns', '/campaigns'],
  ])('%s: every one is served once, in creation order', async (kind, list) => {
    const key = sandbox.current.credentials.api_key;
    const created: string[] = [];
    const { served, all } = await pageWhileCreating(list, key, async (i) => {
      const body = kind === 'patients'
        ? { first_name: `P${i}`, last_name: 'Order', email: `order-${i}-${randomUUID()}@example.com` }
        : { name: `C${i}`, body: 'Recall' };
      created.push((await call('POST', list, key, body)).id);
    });
    expect(new Set(served).size).toBe(served.length);
    expect(served).toEqual(all);
    expect(all.slice(-created.length)).toEqual(created);
  });

  it('patient messages, oldest first: every one is served once, in creation order', async () => {
    const key = sandbox.current.credentials.api_key;
    const patient = await call('POST', '/patients', key, { first_name: 'Many', last_name: 'Messages', phone: '+15555550173' });
    const created: string[] = [];
    const list = `/patient-messages?patient_id=${patient.id}&order=asc`;
    const { served, all } = await pageWhileCreating(list, key, async (i) => {
      created.push((await call('POST', '/patient-messages', key, { to: { patient_id: patient.id }, body: `m${i}` })).message.id);
    });
    expect(served).toEqual(all);
    expect(all).toEqual(created);
  });

  it('a conversation\'s messages (older-style list, OAuth): every one is served once, in creation order', async () => {
    const world = staffWorld(sandbox.current);
    const token = world.mintToken(world.dana, [...SCOPES]);
    const chat = world.addConversation([world.dana, world.sam]);
    const created: string[] = [];
    const { served, all } = await pageWhileCreating(`/conversations/${chat.id}/messages`, token, async (i) => {
      created.push((await call('POST', `/me/conversations/${chat.id}/messages`, token, { body: `t${i}` })).id);
    });
    expect(served).toEqual(all);
    expect(all).toEqual(created);
  });

  it('newest first, a client that keeps what is newer than the last message it saw misses none', async () => {
    const key = sandbox.current.credentials.api_key;
    const patient = await call('POST', '/patients', key, { first_name: 'Newest', last_name: 'First', phone: '+15555550174' });
    const list = `/patient-messages?patient_id=${patient.id}&page[limit]=5`;
    const seen = new Set<string>();
    const created: string[] = [];
    // As `msgctl messages list --follow` does: read the newest page, keep what sorts after the newest seen.
    let newest: { at: string; id: string } | null = null;
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 3; i++) created.push((await call('POST', '/patient-messages', key, { to: { patient_id: patient.id }, body: `n${round}.${i}` })).message.id);
      const page = await call('GET', list, key);
      for (const m of page.data as { id: string; created_at: string }[]) {
        if (!newest || m.created_at > newest.at || (m.created_at === newest.at && m.id > newest.id)) seen.add(m.id);
      }
      const top = page.data[0] as { id: string; created_at: string };
      newest = { at: top.created_at, id: top.id };
    }
    expect(created.filter((id) => !seen.has(id))).toEqual([]);
  });
});

describe('TimeOrderedIds', () => {
  it('grows strictly within one millisecond and across a counter overflow, and carries the time', () => {
    const ids = new TimeOrderedIds(() => Date.parse('2026-05-04T10:00:00.000Z'));
    const made = Array.from({ length: 10_000 }, () => ids.next());
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
    expect(made[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(made[0]!.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.parse('2026-05-04T10:00:00.000Z'));
    const overflow = new TimeOrderedIds(() => 1_000);
    (overflow as unknown as { msecs: number; counter: number }).msecs = 1_000;
    (overflow as unknown as { counter: number }).counter = 0xffff_fffe;
    const [a, b, c] = [overflow.next(), overflow.next(), overflow.next()];
    expect(a < b && b < c).toBe(true);
  });
});
