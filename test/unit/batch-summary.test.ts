/**
 * The summary of a `send --csv` run that sent some rows and found others done by an earlier run:
 * what the earlier runs did not send (skipped, failed) also makes the exit 10, so the line says
 * what "already done" was made of.
 */
import { describe, expect, it } from 'vitest';
import { BatchTally, summaryText } from '../../src/cli/batch/report.js';

const context = { batch: 'b-1', csv: 'list.csv', journal: null, interrupted: false };

describe('the batch summary', () => {
  it('breaks "already done" down when an earlier run left rows unsent', () => {
    const t = new BatchTally();
    t.add({ outcome: 'sent', messageId: 'm', requestId: 'r' } as never);
    t.already = { sent: 40, skipped: 4, failed: 0 };
    expect(summaryText(t, context)).toContain('Done: 1 sent, 0 skipped, 0 failed, 0 invalid, 44 already done (40 sent, 4 skipped, 0 failed) (45 rows of list.csv).');
    expect(t.allSent).toBe(false);
  });

  it('keeps the short form when every earlier row was sent', () => {
    const t = new BatchTally();
    t.add({ outcome: 'sent', messageId: 'm', requestId: 'r' } as never);
    t.already = { sent: 40, skipped: 0, failed: 0 };
    expect(summaryText(t, context)).toContain('Done: 1 sent, 0 skipped, 0 failed, 0 invalid, 40 already done (41 rows of list.csv).');
  });
});
