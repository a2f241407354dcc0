import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';
import { staffWorld } from '../helpers/staff-world.js';
import type { ConversationRecord } from '../../src/sandbox/domain/records.js';
import { exportsTable } from '../../src/sandbox/domain/exports.js';

// Exports take 1.5 s of sandbox time; run the clock 10x faster.
const sandbox = useSandbox({ timeScale: 0.1 });
let w: ReturnType<typeof staffWorld>;
let env: Record<string, string | undefined>;
let chat: ConversationRecord;

beforeAll(() => {
  w = staffWorld(sandbox.current);
  env = w.oauthEnv();
  chat = w.addConversation([w.dana, w.sam]);
  w.addMessage(chat, w.sam, 'first');
  // A millisecond later, so the export's order (time, then id) is the order written here.
  sandbox.current.sb.clock.advance(1);
  w.addMessage(chat, w.dana, 'second, with "quotes", commas\nand a newline');
});

async function readyExport(format = 'json') {
  const r = await msgctl(['exports', 'create', chat.id, '--format', format, '--wait', '--json'], { env });
  expect(r.exitCode).toBe(0);
  return jsonLines(r.stdout)[0];
}

describe('msgctl exports create / get', () => {
  it('starts an export that is running (202), then ready with a short-lived download_url', async () => {
    const r = await msgctl(['exports', 'create', chat.id, '--json'], { env });
    expect(r.exitCode).toBe(0);
    const [started] = jsonLines(r.stdout);
    expect(started).toMatchObject({ status: 'running', conversation_id: chat.id, format: 'json' });
    expect(started.download_url).toBeUndefined();

    const got = await msgctl(['exports', 'get', started.id, '--wait', '--json'], { env });
    expect(got.exitCode).toBe(0);
    const [ready] = jsonLines(got.stdout);
    expect(ready).toMatchObject({ id: started.id, status: 'ready' });
    expect(ready.download_url).toMatch(new RegExp(`^${sandbox.current.origin}/downloads/exports/${started.id}\\?expires=\\d+&token=`));
    expect(Date.parse(ready.expires_at) - w.sb.clock.now()).toBeGreaterThan(4 * 60_000);
    expect(Date.parse(ready.expires_at) - w.sb.clock.now()).toBeLessThanOrEqual(5 * 60_000);
  });

  it('refuses a non-member (exit 3), an unknown conversation (exit 4), an API key (exit 3 oauth_required)', async () => {
    const notMine = w.addConversation([w.sam, w.riley]);
    const [member, missing, key] = await Promise.all([
      msgctl(['exports', 'create', notMine.id, '--json'], { env }),
      msgctl(['exports', 'create', '00000000-0000-4000-8000-000000000009', '--json'], { env }),
      msgctl(['exports', 'create', chat.id, '--json'], { env: sandboxEnv(sandbox.current) }),
    ]);
    expect(member.exitCode).toBe(3);
    expect(jsonLines(member.stderr)[0].code).toBe('conversation_membership_required');
    expect(missing.exitCode).toBe(4);
    expect(key.exitCode).toBe(3);
    expect(jsonLines(key.stderr)[0].code).toBe('oauth_required');
  });

  it('shows an export only to the app and user that started it (404 otherwise)', async () => {
    const ready = await readyExport();
    const [sam, otherApp, mine] = await Promise.all([
      msgctl(['exports', 'get', ready.id, '--json'], { env: w.oauthEnv(w.mintToken(w.sam)) }),
      msgctl(['exports', 'get', ready.id, '--json'], { env: w.oauthEnv(w.mintToken(w.dana, undefined, 'unapproved-app')) }),
      msgctl(['exports', 'get', ready.id, '--json'], { env }),
    ]);
    expect(sam.exitCode).toBe(4);
    expect(otherApp.exitCode).toBe(4);
    expect(mine.exitCode).toBe(0);
  });

  it('needs exports:read', async () => {
    const r = await msgctl(['exports', 'create', chat.id, '--json'], { env: w.oauthEnv(w.mintToken(w.dana, ['messages:read'])) });
    expect(r.exitCode).toBe(3);
    expect(jsonLines(r.stderr)[0].code).toBe('insufficient_scope');
  });
});

describe('msgctl exports download', () => {
  it('writes the JSON file with the messages as they were when it became ready', async () => {
    const ready = await readyExport();
    w.addMessage(chat, w.sam, 'after the export');
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-export-'));
    const file = join(dir, 'chat.json');
    const r = await msgctl(['exports', 'download', ready.id, '-o', file], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.export).toMatchObject({ id: ready.id, conversation_id: chat.id });
    expect(doc.messages.map((m: { body: string }) => m.body)).toEqual(['first', 'second, with "quotes", commas\nand a newline']);
  });

  it('streams CSV to stdout, quoting what needs quoting', async () => {
    const ready = await readyExport('csv');
    const r = await msgctl(['exports', 'download', ready.id], { env });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\r\n');
    expect(lines[0]).toBe('id,conversation_id,sender_id,created_at,type,body,reply_to_message_id');
    expect(r.stdout).toContain(',"second, with ""quotes"", commas\nand a newline",');
  });

  it('refuses an expired link (403 download_expired: §7.2 has no 410) and a forged one (403); the CLI always fetches a fresh link', async () => {
    const ready = await readyExport();
    const forged = new URL(ready.download_url);
    const token = forged.searchParams.get('token')!;
    forged.searchParams.set('token', (token[0] === 'A' ? 'B' : 'A') + token.slice(1));
    const forgedResponse = await fetch(forged);
    expect(forgedResponse.status).toBe(403);
    expect(((await forgedResponse.json()) as { code: string }).code).toBe('download_forbidden');
    const longer = new URL(ready.download_url);
    longer.searchParams.set('expires', String(Number(longer.searchParams.get('expires')) + 3600));
    expect((await fetch(longer)).status).toBe(403);

    expect((await fetch(ready.download_url)).status).toBe(200);
    w.sb.clock.advance(5 * 60_000 + 1000);
    const expired = await fetch(ready.download_url);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { code: string }).code).toBe('download_expired');

    const r = await msgctl(['exports', 'download', ready.id], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).export.id).toBe(ready.id);
  });

  it('says so when the export is still running, and waits for it with --wait', async () => {
    // Started straight in the store and handed to the runner only later, so "still running" does not race the clock.
    const record = exportsTable(w.sb).insert({
      id: randomUUID(), orgId: chat.orgId, conversationId: chat.id, userId: w.dana.id, clientId: 'msgctl-sandbox-cli',
      format: 'json', status: 'running', created_at: w.sb.clock.iso(), ready_at: null, lastSeq: null,
    });
    const early = await msgctl(['exports', 'download', record.id], { env });
    expect(early.exitCode).toBe(1);
    expect(early.stderr).toMatch(/running, not ready/);
    const waiting = msgctl(['exports', 'download', record.id, '--wait'], { env });
    setTimeout(() => w.sb.events.emit('export.requested', record), 1000);
    const waited = await waiting;
    expect(waited.exitCode).toBe(0);
    expect(JSON.parse(waited.stdout).export.id).toBe(record.id);
  });
});
