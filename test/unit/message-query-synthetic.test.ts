import { describe, expect, it } from 'vitest';
import { SandboxStore } from '../../src/sandbox/store/store.js';
import { Clock } from '../../src/sandbox/clock.js';
import { SandboxContext } from '../../src/sandbox/context.js';
import { seedWorld } from '../../src/sandbox/seed.js';
import { seedSyntheticMessages } from '../../src/sandbox/domain/synthetic.js';

async function world(seed: number, count: number) {
  const sb = new SandboxContext(new SandboxStore(), new Clock(1), { port: 0, seed, rateLimit: 0, timeScale: 1 });
  const credentials = seedWorld(sb);
  const before = new Set(sb.db.messages.values());
  await seedSyntheticMessages(sb, count);
  const messages = [...sb.db.messages.values()].filter((m) => !before.has(m));
  return { sb, credentials, messages };
}

describe('seedSyntheticMessages', () => {
  it('is deterministic for a seed and different for another', async () => {
    // 500 messages each: any run of the PRNG shows it (ids, bodies, conversations and senders compared one by one).
    const a = await world(3, 500);
    const b = await world(3, 500);
    const c = await world(4, 500);
    expect(a.messages.map((m) => [m.id, m.body, m.conversationId, m.senderKind])).toEqual(b.messages.map((m) => [m.id, m.body, m.conversationId, m.senderKind]));
    expect(c.messages[0]!.id).not.toBe(a.messages[0]!.id);
  });

  it('writes N messages in time order over the last 90 days, of every kind', async () => {
    // 6,000: enough to reach more than 200 patients (one per 20 messages, up to the 300 there are)
    // and a share of failed deliveries well above 0.5 % (~1.8 %), and a thousand messages seeded
    // after the seeder's first turn of the event loop (every 5,000); 12,000 proved no more.
    const { sb, credentials, messages } = await world(1, 6_000);
    expect(messages).toHaveLength(6_000);
    const now = sb.clock.now();
    // The pairs out of order (one expect for all: 12,000 of them cost more than the seeding).
    const outOfOrder = messages.slice(1).filter((m, i) => !(m.seq > messages[i]!.seq && m.createdMs >= messages[i]!.createdMs));
    expect(outOfOrder).toEqual([]);
    expect(messages[0]!.createdMs).toBeGreaterThan(now - 91 * 86_400_000);
    expect(messages.at(-1)!.createdMs).toBeLessThanOrEqual(now);
    expect(messages.every((m) => m.orgId === credentials.organization_id && m.body.length > 0 && !m.body.includes('{'))).toBe(true);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(messages.every((m) => uuid.test(m.id) && uuid.test(m.conversationId))).toBe(true);
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    expect(new Set(messages.map((m) => m.senderKind))).toEqual(new Set(['patient', 'staff', 'api_key']));
    expect(new Set(messages.map((m) => m.channel))).toEqual(new Set(['secure', 'sms']));
    const conversations = new Set(messages.map((m) => m.conversationId));
    const numbers = new Set([...conversations].map((id) => sb.db.conversations.get(id)!.phoneNumberId));
    expect(numbers.size).toBe(2);
    const patients = new Set(messages.map((m) => m.patientId));
    expect(patients.size).toBeGreaterThan(200);
    const failed = messages.filter((m) => m.delivery?.status === 'failed' || m.delivery?.status === 'undelivered');
    expect(failed.length / messages.length).toBeGreaterThan(0.005);
    expect(failed.every((m) => m.delivery!.error)).toBe(true);
    expect(messages.filter((m) => m.senderKind === 'patient').every((m) => m.delivery === null)).toBe(true);
    for (const id of conversations) {
      const c = sb.db.conversations.get(id)!;
      expect(c.type).toBe('patient');
      expect(c.last_message_at).not.toBeNull();
    }
  });
  it('gives the event loop turns, and stops when its signal aborts (Ctrl-C while a million are seeded)', async () => {
    const sb = new SandboxContext(new SandboxStore(), new Clock(1), { port: 0, seed: 1, rateLimit: 0, timeScale: 1 });
    seedWorld(sb);
    const before = sb.db.messages.size;
    const controller = new AbortController();
    let turns = 0;
    const counting = setInterval(() => {
      turns += 1;
      if (turns === 2) controller.abort(new Error('Interrupted'));
    }, 0);
    try {
      await expect(seedSyntheticMessages(sb, 1_000_000, controller.signal)).rejects.toThrow('Interrupted');
    } finally {
      clearInterval(counting);
    }
    // Stopped within a few turns of the abort: a small share of the million.
    expect(sb.db.messages.size - before).toBeLessThan(100_000);
  });
});
