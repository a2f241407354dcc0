import { describe, expect, it } from 'vitest';
import { readableEvent } from '../../src/cli/events/listen.js';
import { TimeView } from '../../src/cli/output/time-view.js';
import { SeenIds } from '../../src/cli/events/seen-ids.js';

describe('events listen helpers', () => {
  it('shows an event on a terminal as its time in the labelled zone and its type, then its ids, wrapped whole to the width', () => {
    const times = new TimeView('America/New_York', () => Date.parse('2026-11-22T12:00:00Z'));
    const event = {
      id: 'evt_01a21f35-0fbc-7250-a54b-42156785bd05',
      type: 'conversation.message.created',
      occurred_at: '2026-11-22T10:00:05.123Z',
      delivery_attempt: 1,
      payload: { conversation_id: '01a21f35-0fbc-7250-a54b-42156785bd05', message_id: '01a21f35-1111-7250-a54b-42156785bd05' },
    };
    expect(readableEvent(event, times, 80)).toBe(
      [
        '05:00:05 EST  conversation.message.created',
        '  conversation_id=01a21f35-0fbc-7250-a54b-42156785bd05',
        '  message_id=01a21f35-1111-7250-a54b-42156785bd05',
        '  event=evt_01a21f35-0fbc-7250-a54b-42156785bd05',
      ].join('\n'),
    );
    const wide = readableEvent(event, times, 200).split('\n');
    expect(wide).toHaveLength(2);
    for (const line of readableEvent(event, times, 80).split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    // Another day: the date too. A retry: the attempt. Patient text in a field: escaped.
    expect(readableEvent({ ...event, occurred_at: '2026-11-20T23:59:59Z', delivery_attempt: 3, payload: { emoji: '👍\u001b[2J' } }, times, 80)).toBe(
      '2026-11-20 18:59:59 EST  conversation.message.created  (attempt 3)\n  emoji=👍\\x1b[2J  event=evt_01a21f35-0fbc-7250-a54b-42156785bd05',
    );
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
