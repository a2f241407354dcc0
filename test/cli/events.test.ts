import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl, sandboxEnv, startInProcess, type BackgroundCommand } from '../helpers/in-process.js';
import { staffWorld } from '../helpers/staff-world.js';
import { referenceAccepts, referenceHeaders, referenceSecret } from '../helpers/standard-webhooks.js';
import { webhookEndpoints } from '../../src/sandbox/domain/webhooks.js';
import { webhookDeliveries } from '../../src/sandbox/domain/events.js';

// A tenth of real time: retries come after 0.1, 0.2, 0.4 and 0.8 s.
const sandbox = useSandbox({ timeScale: 0.1 });
let w: ReturnType<typeof staffWorld>;
let env: Record<string, string | undefined>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(() => {
  w = staffWorld(sandbox.current);
  env = w.oauthEnv();
});

const running: BackgroundCommand[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((l) => l.stop()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(args: string[], listenerEnv = env) {
  const listener = startInProcess(['events', 'listen', ...args], { env: listenerEnv });
  running.push(listener);
  const [, url] = await listener.waitFor(/Listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/);
  const registered = listener.stderr.match(/Registered webhook endpoint ([0-9a-f-]{36})/);
  return { listener, url: url!, endpointId: registered?.[1] };
}

/** Retries an assertion until it holds (the sandbox records an attempt just after the receiver answers it). */
async function eventually(assertion: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return assertion();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** When the receiver got it (ms since the epoch). */
  receivedAt: number;
}

/** A stand-in app: records every request, answering with `statusFor(n)` for the n-th (1-based). */
async function receiver(statusFor: (n: number) => number = () => 204) {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests.push({ headers: req.headers, body, receivedAt: Date.now() });
      res.writeHead(statusFor(requests.length)).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const waitForRequests = async (count: number, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (requests.length < count) {
      if (Date.now() > deadline) throw new Error(`got ${requests.length} of ${count} requests`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return requests;
  };
  return { url, requests, waitForRequests };
}

describe('msgctl events listen --register', () => {
  it('prints each of the six event types exactly once, then deletes its endpoint on exit', async () => {
    const chat = w.addConversation([w.dana, w.sam]);
    const message = w.addMessage(chat, w.sam, 'Lunch at noon?');
    const { listener, endpointId } = await listen(['--register', '--json']);
    expect(endpointId).toMatch(UUID);

    const sent = await msgctl(['send', '--to', '+15555550123', 'Your results are ready', '--json'], { env: sandboxEnv(sandbox.current) });
    expect(sent.exitCode).toBe(0);
    const patientMessage = jsonLines(sent.stdout)[0].message;
    const steps = [
      ['messages', 'react', message.id, '🎉'],
      ['messages', 'unreact', message.id, '🎉'],
      ['conversations', 'participants', 'add', chat.id, '--user', w.riley.id],
      ['conversations', 'participants', 'remove', chat.id, '--user', w.riley.id],
      ['exports', 'create', chat.id, '--wait', '--json'],
    ];
    let exportId = '';
    for (const step of steps) {
      const r = await msgctl(step, { env });
      expect(r.exitCode, `${step.join(' ')}: ${r.stderr}`).toBe(0);
      if (step[0] === 'exports') exportId = jsonLines(r.stdout)[0].id;
    }

    await listener.waitForLines(6);
    // Every delivery answered: none can come again, so a duplicate would already be printed.
    await eventually(() => expect(webhookDeliveries(sandbox.current.sb).filter((d) => d.endpointId === endpointId).map((d) => d.state)).toEqual(Array(6).fill('delivered')));
    const events = jsonLines(listener.stdout);
    expect(events.map((e) => e.type).sort()).toEqual([
      'conversation.message.created',
      'conversation.participant.added',
      'conversation.participant.removed',
      'export.ready',
      'message.reaction.created',
      'message.reaction.deleted',
    ]);
    for (const e of events) {
      expect(Object.keys(e).sort()).toEqual(['delivery_attempt', 'id', 'occurred_at', 'organization_id', 'payload', 'type']);
      expect(e).toMatchObject({ id: expect.stringMatching(UUID), delivery_attempt: 1, organization_id: w.dana.orgId });
      expect(Date.parse(e.occurred_at)).not.toBeNaN();
    }
    const byType = Object.fromEntries(events.map((e) => [e.type, e.payload]));
    expect(byType).toEqual({
      'conversation.message.created': {
        conversation_id: patientMessage.conversation.id,
        message_id: patientMessage.id,
        sender_id: patientMessage.sender.id,
      },
      'message.reaction.created': { conversation_id: chat.id, message_id: message.id, user_id: w.dana.id, emoji: '🎉' },
      'message.reaction.deleted': { conversation_id: chat.id, message_id: message.id, user_id: w.dana.id, emoji: '🎉' },
      'conversation.participant.added': { conversation_id: chat.id, user_id: w.riley.id },
      'conversation.participant.removed': { conversation_id: chat.id, user_id: w.riley.id },
      'export.ready': { export_id: exportId, conversation_id: chat.id, status: 'ready' },
    });

    expect(await listener.stop('SIGINT')).toBe(0);
    expect(listener.stderr).toMatch(new RegExp(`Deleted webhook endpoint ${endpointId}`));
    expect(webhookEndpoints(w.sb).get(endpointId!)).toBeUndefined();
  });

  it('only asks for the event types given with --event', async () => {
    const chat = w.addConversation([w.dana, w.sam]);
    const { listener, endpointId } = await listen(['--register', '--event', 'message.reaction.created']);
    expect(webhookEndpoints(w.sb).get(endpointId!)?.events).toEqual(['message.reaction.created']);
    const m = w.addMessage(chat, w.sam, 'react to me');
    expect((await msgctl(['messages', 'react', m.id, '👀'], { env })).exitCode).toBe(0);
    const [line] = await listener.waitForLines(1);
    expect(JSON.parse(line!).type).toBe('message.reaction.created');
  });

  it('on a terminal: the time in the labelled zone and the type, then the ids whole, within the width', async () => {
    const chat = w.addConversation([w.dana, w.sam]);
    const listener = startInProcess(['events', 'listen', '--register', '--event', 'message.reaction.created'], { env: { ...env, MSGCTL_TIME_ZONE: 'America/New_York' }, tty: true, columns: 80 });
    running.push(listener);
    await listener.waitFor(/Listening on/);
    const m = w.addMessage(chat, w.sam, 'react to me');
    expect((await msgctl(['messages', 'react', m.id, '👀'], { env })).exitCode).toBe(0);
    const [first, ...rest] = await listener.waitForLines(3);
    expect(first).toMatch(/^\d\d:\d\d:\d\d E[SD]T {2}message\.reaction\.created$/);
    expect(rest.join('\n')).toContain(`message_id=${m.id}`);
    for (const line of [first!, ...rest]) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('refuses an unknown --event type locally (exit 2)', async () => {
    const r = await msgctl(['events', 'listen', '--register', '--event', 'message.sent'], { env });
    expect(r.exitCode).toBe(2);
  });
});

describe('msgctl events listen with a secret from the environment', () => {
  const secret = referenceSecret();
  const body = JSON.stringify({
    id: '5b0e6f7c-3a41-4d2e-9f10-8c7b6a5d4e3f',
    type: 'message.reaction.created',
    occurred_at: new Date().toISOString(),
    organization_id: '00000000-0000-4000-8000-000000000000',
    delivery_attempt: 1,
    payload: { conversation_id: 'c', message_id: 'm', user_id: 'u', emoji: '👍' },
  });
  const deliver = (url: string, headers: Record<string, string>, payload = body) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });

  it('rejects forged, tampered, stale and unsigned deliveries, and prints a duplicate once', async () => {
    const { listener, url } = await listen(['--json'], isolatedEnv({ MSGCTL_WEBHOOK_SECRET: secret }));
    const id = '5b0e6f7c-3a41-4d2e-9f10-8c7b6a5d4e3f';

    const forged = await deliver(url, referenceHeaders(referenceSecret(), id, body));
    expect(forged.status).toBe(401);
    const tampered = await deliver(url, referenceHeaders(secret, id, body), body.replace('👍', '👎'));
    expect(tampered.status).toBe(401);
    const stale = await deliver(url, referenceHeaders(secret, id, body, Date.now() - 6 * 60_000));
    expect(stale.status).toBe(400);
    const unsigned = await deliver(url, {});
    expect(unsigned.status).toBe(400);
    expect(listener.stdout).toBe('');
    expect(listener.stderr.match(/rejected delivery/g)).toHaveLength(4);

    expect((await deliver(url, referenceHeaders(secret, id, body))).status).toBe(200);
    expect((await deliver(url, referenceHeaders(secret, id, body))).status).toBe(200);
    await listener.waitFor(/duplicate delivery of 5b0e6f7c/);
    expect(jsonLines(listener.stdout)).toEqual([JSON.parse(body)]);
  });

  it('will not start without a secret, and says how to give one', async () => {
    const r = await msgctl(['events', 'listen'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--register/);
    expect(r.stderr).toMatch(/MSGCTL_WEBHOOK_SECRET/);
  });

  it('reads the secret from stdin with --secret-stdin', async () => {
    const nothing = await msgctl(['events', 'listen', '--secret-stdin'], { env: isolatedEnv(), input: '' });
    expect(nothing.exitCode).toBe(2);
    const listener = startInProcess(['events', 'listen', '--secret-stdin', '--json'], { env: isolatedEnv(), input: `${secret}\n` });
    running.push(listener);
    const [, url] = await listener.waitFor(/Listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/);
    expect((await deliver(url!, referenceHeaders(secret, 'evt-stdin', body))).status).toBe(200);
    await listener.waitForLines(1);
  });
});

describe('delivery retries', () => {
  it('retries a failed delivery with the same id, counting delivery_attempt, forwarded with the original signature', async () => {
    const app = await receiver((n) => (n === 1 ? 500 : 204));
    const { listener, endpointId } = await listen(['--register', '--json', '--forward-to', app.url]);
    const chat = w.addConversation([w.dana, w.sam]);
    w.addMessage(chat, w.sam, 'are you there?');

    const [first, second] = await app.waitForRequests(2);
    const secret = webhookEndpoints(w.sb).get(endpointId!)!.secret;
    for (const r of [first!, second!]) expect(referenceAccepts(secret, r.headers, r.body)).toBe(true);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect([JSON.parse(first!.body).delivery_attempt, JSON.parse(second!.body).delivery_attempt]).toEqual([1, 2]);
    expect(JSON.parse(second!.body).id).toBe(JSON.parse(first!.body).id);

    expect(jsonLines(listener.stdout)).toHaveLength(1);
    expect(listener.stderr).toMatch(/answered 500/);
    await eventually(() => expect(webhookDeliveries(w.sb).find((d) => d.endpointId === endpointId)).toMatchObject({ state: 'delivered', attempts: 2 }));
  });

  it('gives up after 5 attempts, re-signing each with a fresh timestamp', async () => {
    const app = await receiver(() => 503);
    const created = await msgctl(['events', 'endpoints', 'create', '--url', app.url, '--json'], { env });
    const endpoint = jsonLines(created.stdout)[0];
    w.addMessage(w.addConversation([w.dana]), w.dana, 'note to self');

    const requests = await app.waitForRequests(5, 20_000);
    await eventually(() =>
      expect(webhookDeliveries(w.sb).find((d) => d.endpointId === endpoint.id)).toMatchObject({ state: 'failed', attempts: 5, lastStatus: 503 }),
    );
    // Given up: no sixth attempt follows.
    expect(requests).toHaveLength(5);
    expect(requests.map((r) => JSON.parse(r.body).delivery_attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(requests.every((r) => referenceAccepts(endpoint.secret, r.headers, r.body))).toBe(true);
    // Each attempt is signed when it is sent (docs/events.md: the real clock), not with the first
    // attempt's timestamp: at least 1.5 s of waits separate the first attempt from the fifth, so
    // their whole-second stamps differ, and each stamp is within a second of its receipt.
    const stamps = requests.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps[4]! - stamps[0]!).toBeGreaterThanOrEqual(1);
    for (const r of requests) expect(Math.abs(Number(r.headers['webhook-timestamp']) - Math.floor(r.receivedAt / 1000))).toBeLessThanOrEqual(1);
  });
});

describe('msgctl events endpoints', () => {
  it('creates (secret shown once), lists (no secret) and deletes endpoints', async () => {
    const created = await msgctl(['events', 'endpoints', 'create', '--url', 'https://hooks.example/in', '--event', 'export.ready', '--json'], { env });
    expect(created.exitCode).toBe(0);
    const endpoint = jsonLines(created.stdout)[0];
    expect(endpoint).toMatchObject({ id: expect.stringMatching(UUID), url: 'https://hooks.example/in', events: ['export.ready'] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);

    const listed = jsonLines((await msgctl(['events', 'endpoints', 'list', '--json'], { env })).stdout);
    const mine = listed.find((e) => e.id === endpoint.id);
    expect(mine).toEqual({ id: endpoint.id, url: 'https://hooks.example/in', events: ['export.ready'], created_at: endpoint.created_at });

    const otherUser = await msgctl(['events', 'endpoints', 'delete', endpoint.id, '--yes'], { env: w.oauthEnv(w.mintToken(w.sam)) });
    expect(otherUser.exitCode).toBe(4);
    expect((await msgctl(['events', 'endpoints', 'delete', endpoint.id, '--yes'], { env })).exitCode).toBe(0);
    expect((await msgctl(['events', 'endpoints', 'delete', endpoint.id, '--yes'], { env })).exitCode).toBe(4);
  });

  it('delete asks first on a terminal, naming the URL, and without a terminal needs --yes (product.md: destructive commands)', async () => {
    const created = await msgctl(['events', 'endpoints', 'create', '--url', 'https://hooks.example/ask', '--json'], { env });
    const endpoint = jsonLines(created.stdout)[0];
    const stillThere = () => webhookEndpoints(w.sb).get(endpoint.id) !== undefined;

    const unattended = await msgctl(['events', 'endpoints', 'delete', endpoint.id], { env });
    expect(unattended.exitCode).toBe(2);
    expect(unattended.stderr).toContain(`Delete webhook endpoint ${endpoint.id}: refusing without a terminal to ask on. Pass --yes to confirm.`);
    expect(stillThere()).toBe(true);

    const asked: string[] = [];
    const declining = { confirm: async (question: string) => (asked.push(question), false), password: async () => '' };
    const declined = await msgctl(['events', 'endpoints', 'delete', endpoint.id], { env, tty: true, services: { prompter: declining } });
    expect(declined.exitCode).toBe(2);
    expect(asked).toEqual([`Delete webhook endpoint https://hooks.example/ask (${endpoint.id})? Deliveries to it stop, and its signing secret cannot be shown again.`]);
    expect(stillThere()).toBe(true);

    const deleted = await msgctl(['events', 'endpoints', 'delete', endpoint.id, '--yes', '--json'], { env });
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(jsonLines(deleted.stdout)).toEqual([{ id: endpoint.id, deleted: true }]);
    expect(stillThere()).toBe(false);
  });

  it('validates the URL and event types (exit 6) and refuses an API key (exit 3)', async () => {
    const [badUrl, key] = await Promise.all([
      msgctl(['events', 'endpoints', 'create', '--url', 'ftp://example.com', '--json'], { env }),
      msgctl(['events', 'endpoints', 'list', '--json'], { env: sandboxEnv(sandbox.current) }),
    ]);
    expect(badUrl.exitCode).toBe(6);
    expect(jsonLines(badUrl.stderr)[0].field_errors[0].path).toBe('/url');
    expect(key.exitCode).toBe(3);
    expect(jsonLines(key.stderr)[0].code).toBe('oauth_required');
  });

  it('sends nothing about a conversation after the app user was removed from it', async () => {
    const app = await receiver();
    const created = await msgctl(['events', 'endpoints', 'create', '--url', app.url, '--json'], { env });
    const endpoint = jsonLines(created.stdout)[0];
    const left = w.addConversation([w.dana, w.sam]);
    const stayed = w.addConversation([w.dana, w.sam]);

    expect((await msgctl(['conversations', 'participants', 'remove', left.id, '--user', w.dana.id], { env })).exitCode).toBe(0);
    w.addMessage(left, w.sam, 'after Dana left');
    w.addMessage(stayed, w.sam, 'still here');

    const requests = await app.waitForRequests(2);
    // Both deliveries answered; the message in the left conversation came first and made none.
    await eventually(() => expect(webhookDeliveries(w.sb).filter((d) => d.endpointId === endpoint.id).map((d) => d.state)).toEqual(['delivered', 'delivered']));
    const events = app.requests.map((r) => JSON.parse(r.body));
    expect(events.map((e) => [e.type, e.payload.conversation_id])).toEqual([
      ['conversation.participant.removed', left.id],
      ['conversation.message.created', stayed.id],
    ]);
    expect(events[0].payload.user_id).toBe(w.dana.id);
    expect(requests.every((r) => referenceAccepts(endpoint.secret, r.headers, r.body))).toBe(true);
    await msgctl(['events', 'endpoints', 'delete', endpoint.id, '--yes'], { env });
  });
});
