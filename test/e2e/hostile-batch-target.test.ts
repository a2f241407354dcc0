/**
 * docs/security.md, promise 6 (docs/scripting.md, "What makes a batch"): a
 * batch's identity includes where it goes. The same CSV and flags, from one
 * machine (one journal directory), sent to two sandboxes and to two
 * organizations of one sandbox: every target gets every message once, and a
 * re-run against any of them sends nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, msgctl } from '../helpers/cli.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/start.js';
import { reminderRows, TEMPLATE, writeReminderCsv } from '../fixtures/batch/reminders.js';

const first = useSandbox();
let second: RunningSandbox;

beforeAll(async () => {
  second = await startSandbox({ rateLimit: 0 });
});
afterAll(async () => {
  await second?.close();
});

describe('send --csv: the target is part of the batch', () => {
  it('two sandboxes and two organizations each get every row once; re-runs send nothing', { timeout: 120_000 }, async () => {
    const rows = reminderRows(5, { tag: 'target' });
    const csv = join(mkdtempSync(join(tmpdir(), 'msgctl-target-')), 'reminders.csv');
    writeReminderCsv(csv, rows);
    // One machine: one state directory (journals) for every run.
    const home = isolatedEnv();
    const org1 = () => first.current.credentials.organization_id;
    const targets = [
      { name: 'sandbox 1, org 1', sandbox: () => first.current, key: () => first.current.credentials.api_key, mine: (orgId: string) => orgId === org1() },
      { name: 'sandbox 2, org 1', sandbox: () => second, key: () => second.credentials.api_key, mine: () => true },
      { name: 'sandbox 1, org 2', sandbox: () => first.current, key: () => first.current.credentials.other_org_api_key, mine: (orgId: string) => orgId !== org1() },
    ];
    const sent = (t: (typeof targets)[number]) =>
      t.sandbox().sb.db.messages.filter((m) => m.body.includes('(ref target-') && t.mine(m.orgId));
    const run = (t: (typeof targets)[number]) =>
      msgctl(['send', '--csv', csv, '--template', TEMPLATE, '--channel', 'sms'], {
        env: { ...home, MSGCTL_BASE_URL: t.sandbox().baseUrl, MSGCTL_API_KEY: t.key() },
        timeout: 60_000,
      });

    for (const t of targets) {
      const r = await run(t);
      expect(r.exitCode, `${t.name}: ${r.stderr}`).toBe(0);
      expect(r.stderr, t.name).not.toMatch(/already done in an earlier run/);
      expect(sent(t).map((m) => m.body).sort(), t.name).toEqual(rows.map((row) => row.body).sort());
    }
    for (const t of targets) {
      const again = await run(t);
      expect(again.exitCode, `${t.name}: ${again.stderr}`).toBe(0);
      expect(sent(t), t.name).toHaveLength(rows.length);
    }
  });
});
