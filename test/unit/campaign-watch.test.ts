/**
 * What `campaigns watch` adds to the shared progress line (output/progress.ts):
 * every count and an ETA from the interval (or why there is none).
 */
import { describe, expect, it } from 'vitest';
import { countsNote, eta, formatDuration } from '../../src/cli/campaigns/watch.js';
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
  it.each([[0, '0s'], [59.4, '59s'], [60, '1m 00s'], [245, '4m 05s'], [3600, '1h 00m'], [7380, '2h 03m'], [-5, '0s'], [NaN, '0s'], [Infinity, '0s']])('%s s → %s', (s, text) => {
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

describe('countsNote', () => {
  it('names every count and the ETA', () => {
    expect(countsNote(campaign())).toBe('sent 40 · delivered 35 · failed 2 · skipped 6 · ETA 2m 24s');
  });
});
