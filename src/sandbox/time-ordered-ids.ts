/**
 * Ids that order like creation (RFC 9562 UUID version 7): 48 bits of the
 * sandbox clock's milliseconds, then a counter that starts at a random value
 * each millisecond and grows by one for every further id in it (RFC 9562
 * §6.2, method 1), then random bits. Every id is greater than every id made
 * before it, so lists ordered by (created_at, id) are in creation order and a
 * record created in the millisecond of the last one a client was served can
 * never sort before that client's cursor (docs/sandbox.md "Order").
 *
 * The time is the sandbox clock's (moved by POST /_sandbox/clock, as
 * created_at is), not the machine's; uuid's own v7() reads Date.now().
 */
import { randomInt } from 'node:crypto';
import { v7 } from 'uuid';

/** The counter's 32 bits; a fresh millisecond starts it below 2^31, leaving room to count up. */
const COUNTER_MAX = 0xffff_ffff;

export class TimeOrderedIds {
  private msecs = -Infinity;
  private counter = 0;

  constructor(private readonly now: () => number) {}

  next(): string {
    const now = this.now();
    if (now > this.msecs) {
      this.msecs = now;
      this.counter = randomInt(0x8000_0000);
    } else if (this.counter < COUNTER_MAX) {
      this.counter++;
    } else {
      // 2^31 ids in one millisecond: borrow the next one (still after every earlier id).
      this.msecs++;
      this.counter = 0;
    }
    return v7({ msecs: this.msecs, seq: this.counter });
  }
}
