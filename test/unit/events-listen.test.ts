import { describe, expect, it } from 'vitest';
import { readableLine } from '../../src/cli/events/listen.js';
import { SeenIds } from '../../src/cli/events/seen-ids.js';

describe('events listen helpers', () => {
  it('shows one readable line per event on a terminal, with the attempt only after a retry', () => {
    const event = {
      id: 'e1',
      type: 'message.reaction.created',
      occurred_at: '2026-11-22T10:00:00.000Z',
      delivery_attempt: 1,
      payload: { message_id: 'm1', emoji: '👍' },
    };
    expect(readableLine(event)).toBe('2026-11-22T10:00:00.000Z  message.reaction.created  e1  message_id=m1 emoji=👍');
    expect(readableLine({ ...event, delivery_attempt: 3 })).toMatch(/ \(attempt 3\)$/);
  });

  it('remembers a bounded number of event ids, forgetting the oldest first', () => {
    const seen = new SeenIds(2);
    seen.add('a');
    seen.add('b');
    seen.add('a');
    expect(seen.has('a') && seen.has('b')).toBe(true);
    seen.add('c');
    expect([seen.has('a'), seen.has('b'), seen.has('c')]).toEqual([false, true, true]);
  });
});
