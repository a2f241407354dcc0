/**
 * Background steps (`sb.later`: delivery, campaigns, imports, exports, webhooks) that fall due
 * in the same turn of the event loop each end their own unit of work (store.endUnitOfWork). When
 * they shared one, every `changed()` in every step compared every row all of them had handed
 * out: 300 delivery steps due together stringified ~45,000 rows, so a sandbox that fell behind
 * (a batch of 5,000 sends on 2 busy cores) spent more per message the further behind it was.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SandboxStore } from '../../src/sandbox/store/store.js';
import { Clock } from '../../src/sandbox/clock.js';
import { SandboxContext } from '../../src/sandbox/context.js';
import { seedWorld, type SeededCredentials } from '../../src/sandbox/seed.js';
import { findPrincipal } from '../../src/sandbox/domain/principal.js';
import { sendPatientMessage, senderFromPrincipal } from '../../src/sandbox/domain/patient-messages.js';
import { setDelivery } from '../../src/sandbox/workers/delivery.js';

let sb: SandboxContext;
let creds: SeededCredentials;
beforeEach(() => {
  sb = new SandboxContext(new SandboxStore(), new Clock(1), { port: 0, seed: 1, rateLimit: 0, timeScale: 1 });
  creds = seedWorld(sb);
});
afterEach(() => {
  vi.restoreAllMocks();
  sb.cancelTimers();
});

/** `count` new sms messages (no delivery worker: the test runs the steps itself). */
function messages(count: number): string[] {
  const sender = senderFromPrincipal(findPrincipal(sb, creds.api_key)!);
  const ids = Array.from({ length: count }, (_, i) => sendPatientMessage(sb, sender, { to: { phone: `+1212555${String(1000 + i)}` }, body: `m${i}`, channel: 'sms' }).record.id);
  sb.store.settle();
  return ids;
}

/** Runs one step per id, all due in the same turn; resolves when the last has run. */
function stepsDueTogether(ids: string[], step: (id: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let left = ids.length;
    for (const id of ids) {
      sb.later(0, () => {
        step(id);
        if (--left === 0) setImmediate(resolve);
      });
    }
  });
}

describe('background steps due in the same turn', () => {
  it('each compare only the rows they handed out (100 delivery steps: a few stringifies each, not ~5,000 in all)', async () => {
    // 100, not the finding's 300: one shared unit of work grows with the square of the steps, so
    // 100 already make 5,250 stringifies against the bound of 1,000 (checked with the per-step
    // endUnitOfWork removed), and the bound is linear either way.
    const ids = messages(100);
    const stringify = vi.spyOn(JSON, 'stringify');
    await stepsDueTogether(ids, (id) => setDelivery(sb, sb.db.messages.get(id)!, 'sent'));
    expect(stringify.mock.calls.length).toBeLessThan(10 * ids.length);
    for (const id of ids) expect(sb.db.messages.get(id)!.delivery!.status).toBe('sent');
  });

  it('a step\'s change in place is saved, and the next step due in the same turn reads it', async () => {
    const [first, second] = messages(2) as [string, string];
    const seen: string[] = [];
    await stepsDueTogether([first, second], (id) => {
      if (id === first) {
        // Changed in place, no put and no changed(): saved when the step ends.
        sb.db.messages.get(first)!.body = 'changed in place';
      } else seen.push(sb.db.messages.get(first)!.body);
    });
    expect(seen).toEqual(['changed in place']);
    sb.store.settle();
    const stored = sb.store.sql.prepare('SELECT data FROM messages WHERE id = ?').get(first) as { data: string };
    expect(JSON.parse(stored.data).body).toBe('changed in place');
  });
});
