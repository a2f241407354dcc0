/**
 * Streaming at size: `--all` across close to a hundred small pages while new
 * messages keep arriving (and requests fail and are retried) prints every
 * record exactly once; `--follow` prints messages sent after it started,
 * once each, in order, through service outages, and exits 0 on Ctrl-C.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox, withPageCap } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, jsonLines, startInProcess, type BackgroundCommand } from '../helpers/in-process.js';
import { storeMessage } from '../../src/sandbox/domain/patient-messages.js';
import type { ConversationRecord, MessageRecord } from '../../src/sandbox/domain/records.js';
import { addMessage } from '../helpers/messages-fixtures.js';
import { sleep } from '../../src/cli/util/sleep.js';

const SEEDED = 600;
const sandbox = useSandbox({ seedMessages: SEEDED });
const env = () => sandboxEnv(sandbox.current);
const running: BackgroundCommand[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop('SIGTERM')));
});

let patientConversations: ConversationRecord[];
beforeAll(() => {
  const { sb, credentials } = sandbox.current;
  patientConversations = sb.db.conversations.filter((c) => c.type === 'patient' && c.orgId === credentials.organization_id && !!c.last_message_at);
});

/** Every message of the organization's patient conversations now. */
function existingIds(): Set<string> {
  const { sb, credentials } = sandbox.current;
  const ids = new Set<string>();
  for (const m of sb.db.messages.values()) {
    const c = sb.db.conversations.get(m.conversationId);
    if (c?.type === 'patient' && c.orgId === credentials.organization_id) ids.add(m.id);
  }
  return ids;
}

/** A new message "now" in one of the conversations, the way the sandbox's senders store them. */
function sendOne(i: number): MessageRecord {
  const c = patientConversations[(i * 7919) % patientConversations.length]!;
  return storeMessage(sandbox.current.sb, c, {
    senderId: 'test', senderName: 'Concurrent Writer', senderKind: 'staff', patientId: c.patientId, channel: c.channel!,
    phoneNumberId: c.channel === 'sms' ? c.phoneNumberId : null, delivery: { status: 'queued', error: null, updated_at: new Date().toISOString() },
    campaignId: null, body: `concurrent ${i}`, sentVia: null,
  });
}

/** The sandbox's request log from entry `since` on. */
const requestsSince = (since: number) => sandbox.current.testing.requests().slice(since);

/**
 * Runs `messages list … --all --json` with 7-record pages while messages are
 * sent every few milliseconds (from the first page request until the command
 * ends) and a few requests fail (503, dropped connections) and are retried.
 */
async function listWhileSending(args: string[]) {
  const requestsBefore = sandbox.current.testing.requests().length;
  const inserted: MessageRecord[] = [];
  let before = new Set<string>();
  let done = false;
  let second = false;
  const writer = (async () => {
    // Once the second page is asked for, the first has been answered: from here on, everything sent is "new".
    while (!done && sandbox.current.testing.requests().length < requestsBefore + 2) await new Promise((r) => setTimeout(r, 1));
    before = existingIds();
    sandbox.current.testing.injectFaults({ status: 503, path: '/patient-messages' }, { reset: true, path: '/patient-messages' });
    // The first pair served, and the request that retried past them received.
    const firstPairBehind = () => {
      const log = requestsSince(requestsBefore);
      const faults = log.flatMap((q, index) => (q.fault ? [index] : []));
      return faults.length >= 2 && log.length > faults[1]! + 1;
    };
    for (let i = 0; !done && i < 400; i++) {
      inserted.push(sendOne(i));
      // The second pair on a later page: four faults in a row on one page would spend all four
      // retries on it, and 3 s of backoff.
      if (!second && i >= 40 && firstPairBehind()) {
        second = true;
        sandbox.current.testing.injectFaults({ reset: true, path: '/patient-messages' }, { status: 500, path: '/patient-messages' });
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const r = await withPageCap(sandbox.current, 7, () => msgctl(['messages', 'list', '--after', '2000-01-01', '--all', '--json', ...args], { env: env(), timeout: 120_000 }));
  done = true;
  await writer;
  await drainFaults(requestsBefore, second ? 4 : 2);
  expect(r.exitCode, r.stderr).toBe(0);
  const printed = jsonLines<{ id: string; created_at: string; conversation: { id: string } }>(r.stdout);
  const pages = requestsSince(requestsBefore).filter((q) => q.path === '/patient-messages').length;
  return { printed, before, inserted, pages };
}

/** Uses up injected faults the command did not meet, so they cannot hit a later test. */
async function drainFaults(since: number, injected: number) {
  const applied = () => requestsSince(since).filter((q) => q.fault).length;
  while (applied() < injected) {
    await fetch(`${sandbox.current.baseUrl}/patient-messages?after=2000-01-01&page%5Blimit%5D=1`, {
      headers: { authorization: `Bearer ${sandbox.current.credentials.api_key}` },
    }).catch(() => undefined);
  }
}

function expectNoDuplicates(ids: string[]) {
  expect(new Set(ids).size).toBe(ids.length);
}

describe('messages list --all while messages arrive', () => {
  it('newest first: exactly the messages that existed, each once, in order', { timeout: 90_000 }, async () => {
    const { printed, before, inserted, pages } = await listWhileSending([]);
    expect(pages).toBeGreaterThan(SEEDED / 7);
    expect(inserted.length).toBeGreaterThan(20);
    const ids = printed.map((m) => m.id);
    expectNoDuplicates(ids);
    expect(new Set(ids)).toEqual(before);
    for (let i = 1; i < printed.length; i++) expect(printed[i - 1]!.created_at >= printed[i]!.created_at).toBe(true);
  });

  it('oldest first: everything that existed, each once, then new ones at the end in order', { timeout: 90_000 }, async () => {
    const { printed, before, inserted } = await listWhileSending(['--order', 'asc']);
    const ids = printed.map((m) => m.id);
    expectNoDuplicates(ids);
    expect(ids.slice(0, before.size).every((id) => before.has(id))).toBe(true);
    expect(ids.slice(0, before.size)).toHaveLength(before.size);
    const insertedIds = inserted.map((m) => m.id);
    // What came after the existing messages is a prefix of what was sent, in sending order.
    expect(ids.slice(before.size)).toEqual(insertedIds.slice(0, ids.length - before.size));
    for (let i = 1; i < printed.length; i++) expect(printed[i - 1]!.created_at <= printed[i]!.created_at).toBe(true);
  });

  it('grouped by conversation: the first page\'s snapshot, each message once, each conversation in one run', { timeout: 120_000 }, async () => {
    for (const order of ['desc', 'asc']) {
      const { printed, before } = await listWhileSending(['--group-by', 'conversation', '--order', order]);
      const ids = printed.map((m) => m.id);
      expectNoDuplicates(ids);
      expect(new Set(ids)).toEqual(before);
      const finished = new Set<string>();
      for (let i = 0; i < printed.length; i++) {
        const c = printed[i]!.conversation.id;
        expect(finished.has(c), `conversation ${c} appears again after another one`).toBe(false);
        if (printed[i + 1]?.conversation.id !== c) finished.add(c);
      }
    }
  });
});

describe('messages list --follow', () => {
  it('prints the range, then each new message once, oldest first; rides out failures; Ctrl-C exits 0', { timeout: 60_000 }, async () => {
    const sb = sandbox.current.sb;
    const c = patientConversations[0]!;
    const since = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const initial = [...existingIds()].filter((id) => sb.db.messages.get(id)!.created_at >= since).length;
    // After a failed poll the follow loop waits 1 s, then 2 s: it asks the clock (one of the
    // command's services) for those waits, checked below, and gets a tenth of them here.
    const waits: number[] = [];
    const clock = {
      now: () => Date.now(),
      sleep: (ms: number, signal?: AbortSignal) => (waits.push(ms), sleep(ms >= 1000 ? ms / 10 : ms, signal)),
    };
    const follow = startInProcess(['messages', 'list', '--after', since, '--all', '--follow', '--interval', '0.2', '--retries', '0', '--json'], { env: env(), services: { clock } });
    running.push(follow);
    await follow.waitForLines(initial);

    const sent = [sendOne(1), sendOne(2), sendOne(3)];
    // Two messages in the same millisecond: the high-water mark must keep both, and only once.
    const now = sb.clock.now() + 5;
    sent.push(addMessage(sb, c, { at: now, from: 'patient', body: 'same ms A' }), addMessage(sb, c, { at: now, from: 'patient', body: 'same ms B' }));
    await follow.waitForLines(initial + sent.length);

    // The service fails (with the CLI's own retries off, so the follow loop sees it): back off, then carry on.
    sandbox.current.testing.injectFaults({ status: 503, path: '/patient-messages' }, { reset: true, path: '/patient-messages' });
    await follow.waitFor(/could not poll for new messages/);
    sent.push(sendOne(4), sendOne(5));
    await follow.waitForLines(initial + sent.length, 20_000);
    // Three more polls: nothing may be printed twice.
    const polls = () => sandbox.current.testing.requests().filter((q) => q.path === '/patient-messages').length;
    const seen = polls();
    while (polls() < seen + 3) await new Promise((r) => setTimeout(r, 20));

    expect(await follow.stop('SIGINT')).toBe(0);
    expect(waits.filter((ms) => ms !== 200)).toEqual([1000, 2000]);
    expect(follow.stderr).toMatch(/retrying in 1s[\s\S]*retrying in 2s[\s\S]*Connection restored/);
    const printed = jsonLines<{ id: string; body: string }>(follow.stdout);
    expect(printed).toHaveLength(initial + sent.length);
    expectNoDuplicates(printed.map((m) => m.id));
    // Oldest first; two messages of the same millisecond in id order (§4.12: ID as tiebreaker).
    const inOrder = [...sent].sort((x, y) => x.createdMs - y.createdMs || (x.id < y.id ? -1 : 1));
    expect(printed.slice(initial).map((m) => m.id)).toEqual(inOrder.map((m) => m.id));
  });

  it('with nothing in range at the start, prints only what arrives', async () => {
    const polls = () => sandbox.current.testing.requests().filter((q) => q.path === '/patient-messages').length;
    const pollsBefore = polls();
    const follow = startInProcess(['messages', 'list', '--after', 'now', '--follow', '--interval', '0.2', '--json'], { env: env() });
    running.push(follow);
    // The first page and two polls after it, with nothing to print.
    while (polls() < pollsBefore + 3) await new Promise((r) => setTimeout(r, 20));
    expect(follow.stdout).toBe('');
    const sent = [sendOne(10), sendOne(11)];
    await follow.waitForLines(2);
    expect(await follow.stop('SIGTERM')).toBe(0);
    // Sent back to back they can share a millisecond: then id order decides (§4.12).
    const inOrder = [...sent].sort((x, y) => x.createdMs - y.createdMs || (x.id < y.id ? -1 : 1));
    expect(jsonLines<{ id: string }>(follow.stdout).map((m) => m.id)).toEqual(inOrder.map((m) => m.id));
  });

  it('reads top to bottom in time, as tail -f: the newest --limit in range oldest first (or all of it with --all), then what arrives; an --order given is kept', async () => {
    const since = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const inRange = () => jsonLines<{ id: string; created_at: string }>(follow.stdout);
    const byTime = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1);
    let follow = startInProcess(['messages', 'list', '--after', since, '--limit', '5', '--follow', '--interval', '0.2', '--json'], { env: env() });
    running.push(follow);
    await follow.waitForLines(5);
    const newestFive = jsonLines<{ id: string; created_at: string }>((await msgctl(['messages', 'list', '--after', since, '--limit', '5', '--json'], { env: env() })).stdout);
    expect(inRange().map((m) => m.id)).toEqual([...newestFive].reverse().map((m) => m.id));
    const sent = sendOne(21);
    await follow.waitForLines(6);
    expect(inRange()[5]!.id).toBe(sent.id);
    expect(await follow.stop('SIGINT')).toBe(0);

    follow = startInProcess(['messages', 'list', '--after', since, '--all', '--follow', '--interval', '0.2', '--json'], { env: env() });
    running.push(follow);
    const all = [...existingIds()].filter((id) => sandbox.current.sb.db.messages.get(id)!.created_at >= since).length;
    await follow.waitForLines(all);
    const printed = inRange();
    expect(printed).toEqual([...printed].sort(byTime));
    expect(await follow.stop('SIGINT')).toBe(0);

    follow = startInProcess(['messages', 'list', '--after', since, '--limit', '3', '--order', 'desc', '--follow', '--interval', '0.2', '--json'], { env: env() });
    running.push(follow);
    await follow.waitForLines(3);
    const newestThree = jsonLines<{ id: string }>((await msgctl(['messages', 'list', '--after', since, '--limit', '3', '--json'], { env: env() })).stdout);
    expect(inRange().map((m) => m.id)).toEqual(newestThree.map((m) => m.id));
    expect(await follow.stop('SIGINT')).toBe(0);
  });

  it('a non-transient error still ends the command', async () => {
    const follow = startInProcess(['messages', 'list', '--after', 'now', '--follow', '--interval', '0.2', '-q', 'from:('], { env: env() });
    running.push(follow);
    await follow.waitFor(/invalid_query/);
    expect(await follow.stop()).toBe(2); // invalid_query is a usage error
  });
});
