/**
 * The one progress style of long work (imports, batches, exports, campaigns
 * watch): a line redrawn in place on a terminal that allows cursor control,
 * never wider than it and never showing NaN/Infinity; timestamped lines in a
 * log (cron), at 10 % steps and every 30 s once the work has run 10 s.
 */
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/output/progress.js';

function stream(isTTY: boolean, columns?: number) {
  const out = { text: '', isTTY, columns, write: (chunk: string | Uint8Array) => ((out.text += String(chunk)), true), once: () => out };
  return out;
}

describe('on a terminal', () => {
  // Side by side: each waits out the bar's redraw interval between updates.
  it.concurrent.for([30, 40, 60, 80, 100, 120])('never draws a line wider than %i columns, and never NaN, Infinity or NF', async (columns, { expect }) => {
    let now = 1_000_000;
    const stderr = stream(true, columns);
    const p = await createProgress({ io: { stdout: stream(true, columns), stderr }, env: { TERM: 'xterm' }, now: () => now }, { enabled: true, label: 'importing', total: 123_456, unit: 'rows' });
    for (const done of [0, 1, 1000, 50_000, 123_456]) {
      now += 5000;
      p.update(done);
      await new Promise((r) => setTimeout(r, 140));
    }
    p.stop();
    const frames = stderr.text.split('\r\x1b[2K').filter((f) => f !== '');
    expect(frames.length).toBeGreaterThan(2);
    for (const frame of frames) expect([...frame].length, frame).toBeLessThan(columns);
    expect(stderr.text).not.toMatch(/NaN|Infinity|NF/);
    expect(frames[0]).toMatch(/^importing (\[-+\])?\s+0%\s+0\/123,456 ro(ws|…)$/); // no time left before there is a rate
  });

  it('reckons the time left from what it saw done, not from what was done before it started watching', async () => {
    let now = 1_000_000;
    const stderr = stream(true, 160);
    const p = await createProgress({ io: { stdout: stream(true, 160), stderr }, env: { TERM: 'xterm' }, now: () => now }, { enabled: true, label: 'campaign', total: 61, unit: 'recipients' });
    p.update(37); // a campaign 37 recipients in when the watch starts
    await new Promise((r) => setTimeout(r, 140));
    now += 10_000;
    p.update(47); // 10 more in 10 s: 14 left at one a second
    await new Promise((r) => setTimeout(r, 140));
    p.stop();
    const frames = stderr.text.split('\r\x1b[2K').filter((f) => f !== '');
    expect(frames.at(-1)).toMatch(/47\/61 recipients · 14s left/);
  });

  it.each([{ TERM: 'dumb' }, { NO_COLOR: '1' }, { CLICOLOR: '0' }])('%o: no cursor control, plain lines instead', async (env) => {
    const stderr = stream(true, 80);
    let now = 0;
    const p = await createProgress({ io: { stdout: stream(true, 80), stderr }, env, now: () => now }, { enabled: true, label: 'sending', total: 10, unit: 'rows' });
    now = 11_000;
    p.update(5);
    p.stop();
    expect(stderr.text).not.toContain('\x1b');
    expect(stderr.text).not.toContain('\r');
    expect(stderr.text).toBe('1970-01-01T00:00:11Z sending: 5/10 rows (50%)\n');
  });
});

describe('in a log (stderr not a terminal)', () => {
  it('prints nothing for short work, then a timestamped line at each further 10 % or 30 s', async () => {
    let now = Date.parse('2026-11-26T20:00:00Z');
    const stderr = stream(false);
    const p = await createProgress({ io: { stdout: stream(false), stderr }, env: {}, now: () => now }, { enabled: true, label: 'importing', total: 1000, unit: 'rows' });
    p.update(50);
    now += 5_000;
    p.update(80); // 5 s in: still quiet
    expect(stderr.text).toBe('');
    now += 6_000;
    p.update(120); // 11 s: the first line
    p.update(150); // same tenth, 0 s later: nothing
    p.update(210); // a new tenth
    now += 31_000;
    p.update(215); // 30 s later, same tenth
    p.stop();
    expect(stderr.text.split('\n').filter(Boolean)).toEqual([
      '2026-11-26T20:00:11Z importing: 120/1,000 rows (12%)',
      '2026-11-26T20:00:11Z importing: 210/1,000 rows (21%)',
      '2026-11-26T20:00:42Z importing: 215/1,000 rows (21%)',
    ]);
  });
});
