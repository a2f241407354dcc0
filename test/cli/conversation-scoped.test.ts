import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';
import { staffWorld } from '../helpers/staff-world.js';
import type { ConversationRecord, MessageRecord } from '../../src/sandbox/domain/records.js';
import { reactions } from '../../src/sandbox/domain/reactions.js';

const sandbox = useSandbox();
let w: ReturnType<typeof staffWorld>;
let env: Record<string, string | undefined>;
let chat: ConversationRecord; // Dana + Sam
let notMine: ConversationRecord; // Sam + Riley
let otherOrg: ConversationRecord; // Lakeside
let first: MessageRecord;
let otherOrgMessage: MessageRecord;
let notMineMessage: MessageRecord;

/** A message one millisecond after the previous one: same-millisecond messages are listed by id (§4.12), not as written. */
function say(...args: Parameters<typeof w.addMessage>) {
  sandbox.current.sb.clock.advance(1);
  return w.addMessage(...args);
}

beforeAll(() => {
  w = staffWorld(sandbox.current);
  env = w.oauthEnv();
  chat = w.addConversation([w.dana, w.sam]);
  notMine = w.addConversation([w.sam, w.riley]);
  otherOrg = w.addConversation([w.lee]);
  first = say(chat, w.sam, 'Can you cover Thursday?');
  say(chat, w.dana, 'Yes.', first);
  say(chat, w.sam, 'Thanks!', first);
  say(chat, w.dana, 'Unrelated note');
  notMineMessage = w.addMessage(notMine, w.riley, 'private');
  otherOrgMessage = w.addMessage(otherOrg, w.lee, 'elsewhere');
});

const problemCode = (stderr: string) => jsonLines(stderr)[0]?.code;

describe('GET /conversations/{id} (through msgctl api)', () => {
  it('shows only id, organization_id, type and created_at', async () => {
    const r = await msgctl(['api', 'GET', `/conversations/${chat.id}`], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: chat.id, organization_id: chat.orgId, type: 'direct', created_at: chat.created_at });
  });

  it('is 403 conversation_membership_required for a non-member, 404 for another organization', async () => {
    const [forbidden, missing] = await Promise.all([
      msgctl(['api', 'GET', `/conversations/${notMine.id}`, '--json'], { env }),
      msgctl(['api', 'GET', `/conversations/${otherOrg.id}`, '--json'], { env }),
    ]);
    expect(forbidden.exitCode).toBe(3);
    expect(problemCode(forbidden.stderr)).toBe('conversation_membership_required');
    expect(missing.exitCode).toBe(4);
    expect(problemCode(missing.stderr)).toBe('not_found');
  });
});

describe('path ids', () => {
  it('a path id that is not a UUID is 400 invalid_request (exit 1)', async () => {
    const r = await msgctl(['api', 'GET', '/conversations/not-a-uuid', '--json'], { env });
    expect(r.exitCode).toBe(1);
    expect(problemCode(r.stderr)).toBe('invalid_request');
  });
});

describe('msgctl conversations messages', () => {
  it('lists the smaller message shape, oldest first', async () => {
    const r = await msgctl(['conversations', 'messages', chat.id, '--json'], { env });
    expect(r.exitCode).toBe(0);
    const rows = jsonLines(r.stdout);
    expect(rows.map((m) => m.body)).toEqual(['Can you cover Thursday?', 'Yes.', 'Thanks!', 'Unrelated note']);
    expect(Object.keys(rows[0]).sort()).toEqual(
      ['body', 'conversation_id', 'created_at', 'file', 'id', 'reply_to_message_id', 'sender_id', 'type'].sort(),
    );
    expect(rows[0]).toMatchObject({ id: first.id, conversation_id: chat.id, sender_id: w.sam.id, type: 'text', file: null });
  });

  it('follows every page with --all and stops at --limit', async () => {
    const long = w.addConversation([w.dana]);
    for (let i = 0; i < 130; i++) say(long, w.dana, `note ${i}`);
    const [all, limited] = await Promise.all([
      msgctl(['conversations', 'messages', long.id, '--all', '--json'], { env }),
      msgctl(['conversations', 'messages', long.id, '--limit', '3', '--json'], { env }),
    ]);
    expect(jsonLines(all.stdout).map((m) => m.body)).toEqual(Array.from({ length: 130 }, (_, i) => `note ${i}`));
    expect(jsonLines(limited.stdout).map((m) => m.body)).toEqual(['note 0', 'note 1', 'note 2']);
  });

  it('exits 3 conversation_membership_required for a non-member and 4 for another organization', async () => {
    const [forbidden, missing] = await Promise.all([
      msgctl(['conversations', 'messages', notMine.id], { env }),
      msgctl(['conversations', 'messages', otherOrg.id], { env }),
    ]);
    expect(forbidden.exitCode).toBe(3);
    expect(forbidden.stderr).toMatch(/conversation_membership_required/);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/not_found/);
  });

  it('refuses an id that is not a UUID locally (exit 2), before any request', async () => {
    const r = await msgctl(['conversations', 'messages', 'abc'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/must be a UUID/);
  });
});

describe('credentials and scopes on staff-side calls', () => {
  it.each([
    [['conversations', 'messages', '00000000-0000-4000-8000-000000000001']],
    [['conversations', 'participants', '00000000-0000-4000-8000-000000000001']],
    [['messages', 'replies', '00000000-0000-4000-8000-000000000001']],
    [['messages', 'react', '00000000-0000-4000-8000-000000000001', '👍']],
    [['staff', 'list']],
  ])('an API key gets exit 3 oauth_required: %j', async (args) => {
    const r = await msgctl([...args, '--json'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(3);
    expect(problemCode(r.stderr)).toBe('oauth_required');
  });

  it('an unknown token gets exit 3 unauthorized (the older style), not invalid_token', async () => {
    const r = await msgctl(['conversations', 'messages', chat.id, '--json'], { env: w.oauthEnv('mat_test_nope') });
    expect(r.exitCode).toBe(3);
    expect(problemCode(r.stderr)).toBe('unauthorized');
  });

  it('a token without the endpoint\'s scope gets exit 3 insufficient_scope', async () => {
    const readOnly = w.oauthEnv(w.mintToken(w.dana, ['conversations:read']));
    const [messages, react] = await Promise.all([
      msgctl(['conversations', 'messages', chat.id, '--json'], { env: readOnly }),
      msgctl(['messages', 'react', first.id, '👍', '--json'], { env: readOnly }),
    ]);
    expect(messages.exitCode).toBe(3);
    expect(problemCode(messages.stderr)).toBe('insufficient_scope');
    expect(react.exitCode).toBe(3);
    expect(problemCode(react.stderr)).toBe('insufficient_scope');
  });
});

describe('msgctl messages replies', () => {
  it('lists the replies to a message, oldest first', async () => {
    const r = await msgctl(['messages', 'replies', first.id, '--json'], { env });
    expect(r.exitCode).toBe(0);
    const rows = jsonLines(r.stdout);
    expect(rows.map((m) => m.body)).toEqual(['Yes.', 'Thanks!']);
    expect(rows.every((m) => m.reply_to_message_id === first.id)).toBe(true);
  });

  it('is 404 for a message outside the app user\'s conversations', async () => {
    const [notMember, elsewhere] = await Promise.all([
      msgctl(['messages', 'replies', notMineMessage.id], { env }),
      msgctl(['messages', 'replies', otherOrgMessage.id], { env }),
    ]);
    expect(notMember.exitCode).toBe(4);
    expect(elsewhere.exitCode).toBe(4);
  });
});

describe('msgctl messages react / unreact', () => {
  it('adds a reaction (201 Reaction) and removes it again', async () => {
    const r = await msgctl(['messages', 'react', first.id, '👍🏽', '--json'], { env });
    expect(r.exitCode).toBe(0);
    const [reaction] = jsonLines(r.stdout);
    expect(reaction).toEqual({ message_id: first.id, user_id: w.dana.id, emoji: '👍🏽', created_at: expect.any(String) });
    expect(reactions(w.sb).get(`${first.id}:${w.dana.id}:👍🏽`)).toBeDefined();

    const again = await msgctl(['messages', 'react', first.id, '👍🏽', '--json'], { env });
    expect(again.exitCode).toBe(0);
    expect(jsonLines(again.stdout)[0].created_at).toBe(reaction.created_at);

    const removed = await msgctl(['messages', 'unreact', first.id, '👍🏽'], { env });
    expect(removed.exitCode).toBe(0);
    expect(reactions(w.sb).get(`${first.id}:${w.dana.id}:👍🏽`)).toBeUndefined();
    const gone = await msgctl(['messages', 'unreact', first.id, '👍🏽', '--json'], { env });
    expect(gone.exitCode).toBe(4);
  });

  it('takes a reaction back with react --remove, matching a text-style heart to its emoji form', async () => {
    expect((await msgctl(['messages', 'react', first.id, '❤️'], { env })).exitCode).toBe(0);
    const r = await msgctl(['messages', 'react', first.id, '❤', '--remove'], { env });
    expect(r.exitCode).toBe(0);
    expect(reactions(w.sb).filter((x) => x.messageId === first.id && x.emoji.startsWith('❤'))).toEqual([]);
  });

  it.each([
    ['two emoji', '👍👍', 'too_many_emoji'],
    ['text', 'ok', 'not_an_emoji'],
    ['text with an emoji', 'yes 👍', 'not_an_emoji'],
  ])('refuses %s with validation_failed on /emoji (exit 6)', async (_what, emoji, code) => {
    const r = await msgctl(['messages', 'react', first.id, emoji, '--json'], { env });
    expect(r.exitCode).toBe(6);
    const [problem] = jsonLines(r.stderr);
    expect(problem).toMatchObject({ status: 422, code: 'validation_failed', field_errors: [{ path: '/emoji', code }] });
  });

  it('replays a reaction for the same Idempotency-Key and refuses the key for another emoji (exit 5)', async () => {
    const key = '3f9a1c2e-4b5d-4e6f-8a7b-9c0d1e2f3a4b';
    const firstTry = await msgctl(['messages', 'react', first.id, '🙏', '--idempotency-key', key, '--json'], { env });
    const retry = await msgctl(['messages', 'react', first.id, '🙏', '--idempotency-key', key, '--json'], { env });
    expect(retry.exitCode).toBe(0);
    expect(retry.stdout).toBe(firstTry.stdout);
    const reused = await msgctl(['messages', 'react', first.id, '👏', '--idempotency-key', key, '--json'], { env });
    expect(reused.exitCode).toBe(5);
    expect(problemCode(reused.stderr)).toBe('idempotency_key_reused');
  });

  it('is 404 on a message outside the app user\'s conversations', async () => {
    const r = await msgctl(['messages', 'react', notMineMessage.id, '👍'], { env });
    expect(r.exitCode).toBe(4);
  });
});

describe('msgctl conversations participants', () => {
  it('lists participants with their join time', async () => {
    const r = await msgctl(['conversations', 'participants', chat.id, '--json'], { env });
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout)).toEqual(
      [w.dana.id, w.sam.id]
        .sort((a, b) => (a < b ? -1 : 1))
        .map((userId) => ({ user_id: userId, conversation_id: chat.id, joined_at: chat.created_at })),
    );
  });

  it('adds a member of the organization and removes them again', async () => {
    const group = w.addConversation([w.dana, w.sam]);
    const added = await msgctl(['conversations', 'participants', 'add', group.id, '--user', w.riley.id, '--json'], { env });
    expect(added.exitCode).toBe(0);
    expect(jsonLines(added.stdout)[0]).toMatchObject({ user_id: w.riley.id, conversation_id: group.id });
    expect(group.participantIds).toContain(w.riley.id);

    const twice = await msgctl(['conversations', 'participants', 'add', group.id, '--user', w.riley.id, '--json'], { env });
    expect(twice.exitCode).toBe(5);
    expect(problemCode(twice.stderr)).toBe('already_participant');

    const removed = await msgctl(['conversations', 'participants', 'remove', group.id, '--user', w.riley.id], { env });
    expect(removed.exitCode).toBe(0);
    expect(group.participantIds).not.toContain(w.riley.id);
    const again = await msgctl(['conversations', 'participants', 'remove', group.id, '--user', w.riley.id], { env });
    expect(again.exitCode).toBe(4);
  });

  it('refuses someone from another organization (or nobody at all) with participant_not_in_organization (exit 6)', async () => {
    const [lee, nobody] = await Promise.all([
      msgctl(['conversations', 'participants', 'add', chat.id, '--user', w.lee.id, '--json'], { env }),
      msgctl(['conversations', 'participants', 'add', chat.id, '--user', '00000000-0000-4000-8000-0000000000aa', '--json'], { env }),
    ]);
    for (const r of [lee, nobody]) {
      expect(r.exitCode).toBe(6);
      expect(problemCode(r.stderr)).toBe('participant_not_in_organization');
    }
    expect(chat.participantIds).not.toContain(w.lee.id);
  });

  it('exits 3 conversation_membership_required for a non-member, for listing and changing alike', async () => {
    const [list, add] = await Promise.all([
      msgctl(['conversations', 'participants', notMine.id, '--json'], { env }),
      msgctl(['conversations', 'participants', 'add', notMine.id, '--user', w.dana.id, '--json'], { env }),
    ]);
    expect(problemCode(list.stderr)).toBe('conversation_membership_required');
    expect(list.exitCode).toBe(3);
    expect(problemCode(add.stderr)).toBe('conversation_membership_required');
    expect(add.exitCode).toBe(3);
  });

  it('needs participants:write to change participants', async () => {
    const readOnly = w.oauthEnv(w.mintToken(w.dana, ['participants:read']));
    const r = await msgctl(['conversations', 'participants', 'add', chat.id, '--user', w.riley.id, '--json'], { env: readOnly });
    expect(r.exitCode).toBe(3);
    expect(problemCode(r.stderr)).toBe('insufficient_scope');
  });

  it('seats the org admins in a patient conversation, and a removed admin loses access', async () => {
    const send = await msgctl(['send', '--to', '+15555550124', 'Your results are ready', '--json'], { env: sandboxEnv(sandbox.current) });
    expect(send.exitCode).toBe(0);
    const conversationId = jsonLines(send.stdout)[0].message.conversation.id;
    const list = await msgctl(['conversations', 'participants', conversationId, '--json'], { env });
    expect(jsonLines(list.stdout).map((p) => p.user_id)).toEqual([w.dana.id]);
    const messages = await msgctl(['conversations', 'messages', conversationId, '--json'], { env });
    expect(jsonLines(messages.stdout).map((m) => m.body)).toEqual(['Your results are ready']);

    const leave = await msgctl(['conversations', 'participants', 'remove', conversationId, '--user', w.dana.id], { env });
    expect(leave.exitCode).toBe(0);
    const after = await msgctl(['conversations', 'messages', conversationId, '--json'], { env });
    expect(after.exitCode).toBe(3);
    expect(problemCode(after.stderr)).toBe('conversation_membership_required');
  });
});

describe('msgctl staff list', () => {
  it('lists the organization\'s staff and nobody from elsewhere', async () => {
    const r = await msgctl(['staff', 'list', '--json'], { env });
    expect(r.exitCode).toBe(0);
    const rows = jsonLines(r.stdout);
    expect(rows.map((u) => u.name)).toEqual(['Dana Admin', 'Riley Nurse', 'Sam Staff']);
    expect(rows[0]).toEqual({ id: w.dana.id, name: 'Dana Admin', email: 'dana@riverside.example', role: 'admin' });
  });

  it('pages with --limit', async () => {
    const r = await msgctl(['staff', 'list', '--limit', '2', '--json'], { env });
    expect(jsonLines(r.stdout).map((u) => u.name)).toEqual(['Dana Admin', 'Riley Nurse']);
  });
});
