/**
 * `campaigns watch` on a terminal, run in-process with TTY streams: the
 * progress line, in the one style of long work (output/progress.ts), is
 * redrawn on stderr (never stdout) until the campaign completes, and a
 * stopped campaign exits 1. TERM=dumb gets no cursor control.
 */
import { describe, expect, it } from 'vitest';
import { PassThrough, Readable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { run } from '../../src/cli/cli.js';
import { findPrincipal } from '../../src/sandbox/domain/principal.js';
import { senderFromPrincipal } from '../../src/sandbox/domain/patient-messages.js';
import { createPatient } from '../../src/sandbox/domain/patients.js';
import { completeIfDone, recipientsOf, setRecipientStatus, startCampaign, stopCampaign } from '../../src/sandbox/domain/campaigns.js';
import { createCampaign } from '../../src/sandbox/domain/campaigns-edit.js';
import { addRecipients } from '../../src/sandbox/domain/campaigns-recipients.js';

const sandbox = useSandbox({ timeScale: 0.01 });

function terminal(onData?: (text: string) => void) {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  let text = '';
  stream.on('data', (chunk) => {
    text += chunk;
    onData?.(text);
  });
  return { stream, text: () => text };
}

function campaignOf(count: number, interval: number) {
  const { sb, credentials } = sandbox.current;
  const key = findPrincipal(sb, credentials.api_key)!;
  const c = createCampaign(sb, senderFromPrincipal(key), { name: 'TTY', body: 'Hi', send_interval_seconds: interval });
  const ids = Array.from({ length: count }, (_, i) =>
    createPatient(sb, key.orgId, { first_name: `Tty${i}`, last_name: 'T', phone: `+1202555${6000 + i}` }).id);
  addRecipients(sb, c, { patient_ids: ids });
  return c;
}

async function watch(id: string, env: Record<string, string> = { TERM: 'xterm-256color' }, onStderr?: (text: string) => void) {
  const stdout = terminal();
  const stderr = terminal(onStderr);
  const code = await run(['campaigns', 'watch', id, '--poll', '0.05'], {
    io: { stdout: stdout.stream, stderr: stderr.stream, stdin: Readable.from([]) },
    env: {
      MSGCTL_BASE_URL: sandbox.current.baseUrl,
      MSGCTL_API_KEY: sandbox.current.credentials.api_key,
      HOME: mkdtempSync(join(tmpdir(), 'msgctl-tty-')),
      ...env,
    },
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('campaigns watch on a terminal', () => {
  it('redraws a progress line on stderr and exits 0 when the campaign completes', async () => {
    // The campaign moves only when the watcher has drawn what it last saw: one recipient more
    // per new frame, then completed. Its sender sends the first at once and the next a day
    // (14 min real) later, so no timer decides how many frames there are, however loaded the machine.
    const { sb } = sandbox.current;
    const c = campaignOf(20, 86_400);
    startCampaign(sb, c);
    let seen = 0;
    const advance = (text: string) => {
      const frames = text.split('\r\x1b[2K').filter((f) => f.startsWith('campaign ['));
      if (frames.length === seen) return;
      seen = frames.length;
      const next = recipientsOf(sb, c.id).find((r) => r.status === 'pending');
      if (next) setRecipientStatus(sb, next, 'sent');
      else completeIfDone(sb, c);
      sb.store.changed();
    };
    const r = await watch(c.id, undefined, advance);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const frames = r.stderr.split('\r\x1b[2K').slice(1).filter((f) => f !== '');
    expect(frames.length).toBeGreaterThan(3);
    // The line follows the campaign: more than three distinct counts on the way (0/20 … 20/20).
    expect(new Set(frames.flatMap((f) => /(\d+)\/20 recipients/.exec(f)?.[1] ?? [])).size).toBeGreaterThan(3);
    expect(frames[0]).toMatch(/^campaign \[[#-]+\] +\d+%  \d+\/20 recipients/);
    expect(frames.some((f) => /^campaign \[[#-]+\] +\d+%  \d+\/20 recipients( · \S+( \S+)? left)? · sent \d+ · delivered \d+ · failed 0 · skipped 0 · (ETA \S+|completed)/.test(f))).toBe(true);
    for (const frame of frames.slice(0, -1)) expect([...frame].length).toBeLessThan(120);
    expect(r.stderr).not.toMatch(/NaN|Infinity|NF/);
    expect(r.stderr).toMatch(/completed: 20 of 20 sent/);
  }, 30_000);

  it('exits 1 when the campaign is stopped while watching', async () => {
    const c = campaignOf(5, 3600);
    startCampaign(sandbox.current.sb, c);
    setTimeout(() => stopCampaign(sandbox.current.sb, c), 200);
    const r = await watch(c.id);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/was stopped: 1 of 5 sent, 4 skipped or cancelled/);
  }, 30_000);

  it('TERM=dumb: no cursor control, only the outcome (a short watch prints no progress lines)', async () => {
    const c = campaignOf(5, 5);
    startCampaign(sandbox.current.sb, c);
    const r = await watch(c.id, { TERM: 'dumb' });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('\x1b');
    expect(r.stderr).not.toContain('\r');
    expect(r.stderr).toMatch(/completed: 5 of 5 sent/);
  }, 30_000);
});
