/**
 * The `campaigns watch` progress line: every count, a bar that fits the
 * terminal, and an ETA from the interval (or why there is none).
 */
import { describe, expect, it } from 'vitest';
import { eta, formatDuration, progressLine } from '../../src/cli/campaigns/watch.js';
import type { Campaign } from '../../src/contract/api.js';

function campaign(overrides: Partial<Campaign> = {}, counts: Partial<Campaign['counts']> = {}): Campaign {
  return {
    id: '00000000-0000-4000-8000-000000000001', name: 'Recall', status: 'running', channel: 'secure', body: 'Hi',
    phone_number: { number: '+15555550100', team: 'Front Desk' }, sender: { id: 'k', name: 'Key', kind: 'api_key' },
    send_interval_seconds: 2, archived: false, created_at: '', started_at: '', finished_at: null,
    counts: { recipients: 120, pending: 72, sent: 40, delivered: 35, failed: 2, skipped: 6, ...counts },
    ...overrides,
  };
}

describe('formatDuration', () => {
  it.each([[0, '0s'], [59.4, '59s'], [60, '1m 00s'], [245, '4m 05s'], [3600, '1h 00m'], [7380, '2h 03m'], [-5, '0s']])('%s s → %s', (s, text) => {
    expect(formatDuration(s)).toBe(text);
  });
});

describe('eta', () => {
  it('is pending × interval while running, and says why not otherwise', () => {
    expect(eta(campaign())).toBe('ETA 2m 24s');
    expect(eta(campaign({ status: 'paused' }))).toBe('paused');
    expect(eta(campaign({ status: 'draft' }))).toBe('not started');
    expect(eta(campaign({ status: 'completed' }, { pending: 0 }))).toBe('completed');
  });
});

describe('progressLine', () => {
  it('shows done/total, every count and the ETA after a bar filled in proportion', () => {
    const line = progressLine(campaign(), 120);
    expect(line).toBe(`[${'#'.repeat(12)}${'-'.repeat(18)}] 48/120  sent 40 · delivered 35 · failed 2 · skipped 6 · pending 72 · ETA 2m 24s`);
  });

  it('never exceeds the width, dropping the bar on narrow terminals', () => {
    for (const width of [30, 60, 80, 95, 200]) expect([...progressLine(campaign(), width)].length).toBeLessThanOrEqual(width);
    expect(progressLine(campaign(), 60).startsWith('[')).toBe(false);
  });

  it('handles a campaign without recipients', () => {
    expect(progressLine(campaign({ status: 'draft' }, { recipients: 0, pending: 0, sent: 0, delivered: 0, failed: 0, skipped: 0 }), 100)).toMatch(
      /^\[-+\] 0\/0 /,
    );
  });
});
