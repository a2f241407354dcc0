/**
 * A next_cursor is signed with a key of its sandbox world (paging.ts `sign`): it works as given,
 * and nothing in it can be edited, nor a cursor made for another world used, without a 400.
 */
import { describe, expect, it } from 'vitest';
import { createHmac, hash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { startSandbox } from '../../src/sandbox/start.js';

const home = useSandbox();
const elsewhere = useSandbox();

type Sandbox = { current: { baseUrl: string; credentials: { api_key: string } } };

async function patients(sandbox: Sandbox, after?: string) {
  const query = `page[limit]=1${after === undefined ? '' : `&page[after]=${encodeURIComponent(after)}`}`;
  const res = await fetch(`${sandbox.current.baseUrl}/patients?${query}`, {
    headers: { authorization: `Bearer ${sandbox.current.credentials.api_key}` },
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function firstCursor(sandbox: Sandbox): Promise<string> {
  const first = await patients(sandbox);
  expect(first.status).toBe(200);
  expect(first.body.pagination.has_more).toBe(true);
  return first.body.pagination.next_cursor as string;
}

/** The cursor's payload as JSON and its signature, as the sandbox writes them. */
function parts(cursor: string) {
  const [payload, mac] = cursor.split('.') as [string, string];
  return { fields: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>, mac };
}

const encode = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify(fields)).toString('base64url');

describe('page cursors', () => {
  it('a cursor as given serves the next page', async () => {
    const cursor = await firstCursor(home);
    const next = await patients(home, cursor);
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(1);
  });

  it('a cursor with an edited position or time, its signature kept, is a 400', async () => {
    const { fields, mac } = parts(await firstCursor(home));
    for (const edited of [{ ...fields, id: `${String(fields.id)}x` }, { ...fields, t: Number(fields.t) + 86_400_000 }]) {
      const res = await patients(home, `${encode(edited)}.${mac}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/not a valid cursor/);
    }
  });

  it('a cursor of another sandbox world, or signed with a guessed key, is a 400', async () => {
    const foreign = await firstCursor(elsewhere);
    expect((await patients(elsewhere, foreign)).status).toBe(200);
    const res = await patients(home, foreign);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/not a valid cursor/);

    const payload = foreign.split('.')[0]!;
    const guessed = hash('sha3-256', `${randomBytes(32).toString('base64')}.${payload}`, 'base64url');
    expect((await patients(home, `${payload}.${guessed}`)).status).toBe(400);
  });

  it('a signature cut short, lengthened (even by characters a base64url decoder skips) or doubled is a 400', async () => {
    const cursor = await firstCursor(home);
    const [payload, mac] = cursor.split('.') as [string, string];
    for (const bad of [cursor.slice(0, -2), `${cursor}AA`, `${cursor}=`, `${cursor}!`, `${payload}.${mac.slice(0, 10)}=${mac.slice(10)}`, `${cursor}.${mac}`, payload]) {
      expect((await patients(home, bad)).status, bad).toBe(400);
    }
  });

  it("a cursor an older sandbox signed with HMAC-SHA256 under this world's key is a 400", async () => {
    const { fields } = parts(await firstCursor(home));
    const key = home.current.sb.store.table<{ id: string; key: string }>('cursor_keys').get('current')!.key;
    const payload = encode({ ...fields, t: Date.now() });
    const hmac = createHmac('sha256', Buffer.from(key, 'base64')).update(payload).digest('base64url');
    const res = await patients(home, `${payload}.${hmac}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/not a valid cursor/);
  });

  it('a cursor outlives a restart on the same --data file (the key is kept there)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-cursors-'));
    try {
      const dataFile = join(dir, 'world.db');
      const first = await startSandbox({ dataFile, rateLimit: 0 });
      let cursor: string;
      try {
        cursor = await firstCursor({ current: first });
      } finally {
        await first.close();
      }
      const second = await startSandbox({ dataFile, rateLimit: 0 });
      try {
        const next = await patients({ current: second }, cursor);
        expect(next.status).toBe(200);
        expect(next.body.data).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
