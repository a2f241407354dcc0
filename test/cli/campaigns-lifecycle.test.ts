/**
 * Campaigns end to end at 1/100 speed (--time-scale 0.01): a campaign over
 * 120 recipients (opted out, contactless, failing and undeliverable among
 * them) is paused mid-way — and sends nothing while paused — resumed and
 * watched to completion; another is stopped while being watched; Ctrl-C
 * ends a watch but not the campaign. Counts are held to a recount of the
 * recipients throughout.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv, startInProcess } from '../helpers/in-process.js';
import { createPatient } from '../../src/sandbox/domain/patients.js';
import { campaignTable, campaignView } from '../../src/sandbox/domain/campaigns.js';
import { accessTokens } from '../../src/sandbox/domain/access-tokens.js';
import type { Campaign, CampaignCounts, CampaignRecipient, RecipientStatus } from '../../src/contract/api.js';

const sandbox = useSandbox({ timeScale: 0.01 });
const env = () => sandboxEnv(sandbox.current);
const run = (args: string[], extraEnv?: Record<string, string | undefined>) =>
  msgctl(args, { env: extraEnv ? sandboxEnv(sandbox.current, extraEnv) : env(), timeout: 60_000 });

/** The test's own tally of raw recipient rows, independent of the sandbox's counting code. */
function recount(statuses: RecipientStatus[]): CampaignCounts {
  const n = (...s: RecipientStatus[]) => statuses.filter((x) => s.includes(x)).length;
  return {
    recipients: statuses.length,
    pending: n('pending', 'sending'),
    sent: n('sent', 'delivered', 'opened'),
    delivered: n('delivered', 'opened'),
    failed: n('failed', 'undelivered'),
    skipped: n('skipped', 'cancelled'),
  };
}

function rawStatuses(campaignId: string): RecipientStatus[] {
  const rows = sandbox.current.sb.store.table<{ id: string; campaignId: string; status: RecipientStatus }>('campaign_recipients');
  // The campaign's rows only (its indexed column), not a parse of every campaign's rows each time.
  return rows.where('campaign_id = ?', [campaignId]).map((r) => r.status);
}

function campaignMessages(campaignId: string) {
  return sandbox.current.sb.db.messages.filter((m) => m.campaignId === campaignId);
}

/** Samples the sandbox every few ms: the served counts must equal a recount of the rows at every instant. */
let sampler: NodeJS.Timeout | undefined;
const mismatches: string[] = [];
let samples = 0;
beforeEach(() => {
  mismatches.length = 0;
  samples = 0;
  sampler = setInterval(() => {
    for (const c of campaignTable(sandbox.current.sb).values()) {
      const served = campaignView(sandbox.current.sb, c).counts;
      const counted = recount(rawStatuses(c.id));
      samples++;
      if (JSON.stringify(served) !== JSON.stringify(counted)) mismatches.push(`${c.id}: ${JSON.stringify(served)} vs ${JSON.stringify(counted)}`);
    }
  }, 3);
});
afterEach(() => {
  clearInterval(sampler);
  expect(mismatches).toEqual([]);
});

async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function getCampaign(id: string): Promise<Campaign> {
  const r = await run(['campaigns', 'get', id, '--json']);
  expect(r.exitCode).toBe(0);
  return jsonLines<Campaign>(r.stdout)[0]!;
}

async function listRecipients(id: string, extra: string[] = []): Promise<{ rows: CampaignRecipient[]; stderr: string }> {
  const r = await run(['campaigns', 'recipients', 'list', id, '--all', '--json', ...extra]);
  expect(r.exitCode).toBe(0);
  return { rows: jsonLines<CampaignRecipient>(r.stdout), stderr: r.stderr };
}

/** Through the CLI: the campaign's counts equal a recount of its listed recipients (call when nothing moves). */
async function expectCountsMatchRecipients(id: string): Promise<Campaign> {
  const campaign = await getCampaign(id);
  const { rows } = await listRecipients(id);
  expect(campaign.counts).toEqual(recount(rows.map((r) => r.status)));
  return campaign;
}

async function createCampaign(name: string, interval: number, patientIds: string[]): Promise<Campaign> {
  const created = await run(['campaigns', 'create', '--name', name, '--body', `${name}: please call us.`, '--interval', String(interval), '--json']);
  expect(created.exitCode).toBe(0);
  const campaign = jsonLines<Campaign>(created.stdout)[0]!;
  const added = await run(['campaigns', 'recipients', 'add', campaign.id, ...patientIds.flatMap((p) => ['--patient', p]), '--json']);
  expect(added.exitCode).toBe(0);
  expect(jsonLines(added.stdout)[0]).toMatchObject({ added: patientIds.length });
  return campaign;
}

function makePatients(prefix: string, count: number, fields: (i: number) => { phone?: string; email?: string } = (i) => ({ phone: `+1202555${String(1000 + i)}` })) {
  const { sb, credentials } = sandbox.current;
  return Array.from({ length: count }, (_, i) =>
    createPatient(sb, credentials.organization_id, { first_name: `${prefix}${i}`, last_name: 'Test', ...fields(i) }),
  );
}

describe('a campaign over 120 recipients', () => {
  it('pauses mid-way without sending, resumes, and completes with every outcome counted', async () => {
    const { sb } = sandbox.current;
    const reachable = makePatients('Reach', 110);
    const optedOut = makePatients('Stopped', 4, (i) => ({ phone: `+1202555${2000 + i}` }));
    for (const p of optedOut) p.optedOutFrom = ['+15555550100'];
    const contactless = makePatients('Nobody', 4, () => ({}));
    for (const p of contactless) {
      p.phone = null;
      p.email = null;
    }
    const [failing, unreachable] = makePatients('Carrier', 2, (i) => ({ phone: i === 0 ? '+15555550190' : '+15555550191' }));
    // Problem patients spread through the send order.
    const order = [...reachable];
    [...optedOut, ...contactless, failing!, unreachable!].forEach((p, i) => order.splice(5 + i * 12, 0, p));
    const ids = order.map((p) => p.id);

    // 5 s between messages = 50 ms real: slow enough to pause mid-way.
    const campaign = await createCampaign('Recall', 5, ids);
    expect(campaign.counts).toMatchObject({ recipients: 0 });
    expect((await getCampaign(campaign.id)).counts).toEqual({ recipients: 120, pending: 120, sent: 0, delivered: 0, failed: 0, skipped: 0 });

    const started = await run(['campaigns', 'start', campaign.id, '--json', '--yes']);
    expect(started.exitCode).toBe(0);
    const running = jsonLines<Campaign>(started.stdout)[0]!;
    expect(running.status).toBe('running');
    expect(running.started_at).not.toBeNull();

    await waitFor('10 recipients handled', () => rawStatuses(campaign.id).filter((s) => s !== 'pending' && s !== 'sending').length >= 10);
    const paused = await run(['campaigns', 'pause', campaign.id, '--json']);
    expect(paused.exitCode).toBe(0);
    expect(jsonLines<Campaign>(paused.stdout)[0]!.status).toBe('paused');

    // The message in progress finishes; after that nothing is sent for 20 intervals.
    await waitFor('the message in progress', () => !rawStatuses(campaign.id).includes('sending'));
    const sentBefore = campaignMessages(campaign.id).length;
    const pendingBefore = rawStatuses(campaign.id).filter((s) => s === 'pending').length;
    expect(pendingBefore).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(campaignMessages(campaign.id).length).toBe(sentBefore);
    expect(rawStatuses(campaign.id).filter((s) => s === 'pending').length).toBe(pendingBefore);
    const atPause = await expectCountsMatchRecipients(campaign.id);
    expect(atPause.status).toBe('paused');
    expect(atPause.counts.pending).toBe(pendingBefore);

    // Resume (started_at stays the first start), a little faster from now on, and watch to the end.
    const resumed = await run(['campaigns', 'start', campaign.id, '--json', '--yes']);
    expect(resumed.exitCode).toBe(0);
    expect(jsonLines<Campaign>(resumed.stdout)[0]!.started_at).toBe(running.started_at);
    const faster = await run(['campaigns', 'update', campaign.id, '--interval', '3', '--json']);
    expect(faster.exitCode).toBe(0);
    expect(jsonLines<Campaign>(faster.stdout)[0]).toMatchObject({ status: 'running', send_interval_seconds: 3 });
    const watch = await run(['campaigns', 'watch', campaign.id, '--poll', '0.05', '--json']);
    expect(watch.exitCode).toBe(0);
    const seen = jsonLines<Campaign>(watch.stdout);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)!.status).toBe('completed');
    expect(seen.at(-1)!.finished_at).not.toBeNull();
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.counts.pending).toBeLessThanOrEqual(seen[i - 1]!.counts.pending);
      expect(JSON.stringify(seen[i])).not.toBe(JSON.stringify(seen[i - 1])); // a line per change only
    }
    expect(watch.stderr).toMatch(/completed/);

    // Deliveries settle: delivered ~1 s and opened ~3 s of sandbox time after sending, so wait for
    // both (waiting only for "delivered" let a recipient still be on its way to "opened" below).
    await waitFor('deliveries to settle', () => !rawStatuses(campaign.id).some((s) => s === 'sent' || s === 'delivered'));
    const final = await expectCountsMatchRecipients(campaign.id);
    expect(final.counts).toEqual({ recipients: 120, pending: 0, sent: 110, delivered: 110, failed: 2, skipped: 8 });

    const { rows } = await listRecipients(campaign.id);
    expect(rows.map((r) => r.patient.id)).toEqual(ids); // send order = order added
    const byId = new Map(rows.map((r) => [r.patient.id, r]));
    for (const p of optedOut) expect(byId.get(p.id)).toMatchObject({ status: 'skipped', message_id: null, error: { code: 'patient_opted_out' } });
    for (const p of contactless) expect(byId.get(p.id)).toMatchObject({ status: 'skipped', error: { code: 'no_contact_method' } });
    expect(byId.get(failing!.id)).toMatchObject({ status: 'failed', error: { code: 'carrier_rejected' } });
    expect(byId.get(unreachable!.id)).toMatchObject({ status: 'undelivered', error: { code: 'unreachable' } });

    // Messages went out one per reachable recipient, in recipient order, from the campaign's number and sender.
    const messages = campaignMessages(campaign.id).sort((a, b) => a.seq - b.seq);
    const sentOrder = rows.filter((r) => r.message_id).map((r) => r.message_id);
    expect(messages.map((m) => m.id)).toEqual(sentOrder);
    expect(messages).toHaveLength(112);
    expect(new Set(messages.map((m) => `${m.senderName}|${m.channel}|${m.body}`))).toEqual(new Set(['Sandbox full access|secure|Recall: please call us.']));
    expect(sb.db.messages.get(messages[0]!.id)!.campaignId).toBe(campaign.id);

    // Listing by status follows the cursor past the 100-record page.
    const opened = await listRecipients(campaign.id, ['--status', 'opened', '--verbose']);
    expect(opened.rows).toHaveLength(110);
    expect(new Set(opened.rows.map((r) => r.patient.id)).size).toBe(110);
    expect(opened.rows.every((r) => r.status === 'opened')).toBe(true);
    expect(opened.stderr.match(/page%5Bafter%5D=/g)).toHaveLength(1);
    const skipped = await run(['campaigns', 'recipients', 'list', campaign.id, '--status', 'skipped', '--limit', '3', '--json']);
    expect(jsonLines<CampaignRecipient>(skipped.stdout).map((r) => r.patient.id)).toEqual(ids.filter((id) => byId.get(id)!.status === 'skipped').slice(0, 3));
    expect(samples).toBeGreaterThan(100);
  }, 120_000);
});

describe('stopping', () => {
  it('cancels the unsent recipients (counted as skipped), ends a running watch with exit 1, and can never start again', async () => {
    const patients = makePatients('Stop', 30, (i) => ({ phone: `+1202555${3000 + i}` }));
    // 20 s between messages = 200 ms real: the stop lands long before the end.
    const campaign = await createCampaign('Stop me', 20, patients.map((p) => p.id));
    expect((await run(['campaigns', 'start', campaign.id, '--yes'])).exitCode).toBe(0);
    const watching = run(['campaigns', 'watch', campaign.id, '--poll', '0.05', '--json']);
    await waitFor('3 messages', () => campaignMessages(campaign.id).length >= 3);

    const stop = await run(['campaigns', 'stop', campaign.id, '--yes', '--json']);
    expect(stop.exitCode).toBe(0);
    const stopped = jsonLines<Campaign>(stop.stdout)[0]!;
    expect(stopped.status).toBe('stopped');
    expect(stopped.finished_at).not.toBeNull();
    const sentAtStop = campaignMessages(campaign.id).length;
    expect(stopped.counts.pending).toBe(0);
    expect(stopped.counts.skipped).toBe(30 - sentAtStop);

    const watched = await watching;
    expect(watched.exitCode).toBe(1);
    expect(jsonLines<Campaign>(watched.stdout).at(-1)!.status).toBe('stopped');
    expect(watched.stderr).toMatch(/was stopped/);

    await new Promise((r) => setTimeout(r, 800)); // 4 intervals: nothing more goes out
    expect(campaignMessages(campaign.id)).toHaveLength(sentAtStop);
    const statuses = rawStatuses(campaign.id);
    expect(statuses.filter((s) => s === 'cancelled')).toHaveLength(30 - sentAtStop);
    expect(statuses.filter((s) => s === 'pending' || s === 'sending')).toHaveLength(0);
    await waitFor('deliveries to settle', () => !rawStatuses(campaign.id).some((s) => s === 'sent'));
    const after = await expectCountsMatchRecipients(campaign.id);
    expect(after.counts).toMatchObject({ recipients: 30, pending: 0, sent: sentAtStop, skipped: 30 - sentAtStop });

    const restart = await run(['campaigns', 'start', campaign.id, '--json', '--yes']);
    expect(restart.exitCode).toBe(5);
    expect(jsonLines(restart.stderr)[0]).toMatchObject({ status: 409, code: 'campaign_not_editable' });

    // Watching a stopped campaign prints it once and exits 1 at once.
    const again = await run(['campaigns', 'watch', campaign.id, '--json']);
    expect(again.exitCode).toBe(1);
    expect(jsonLines(again.stdout)).toHaveLength(1);
  }, 60_000);
});

describe('watch', () => {
  it('Ctrl-C ends the watch with 130, SIGTERM with 143, and each says the campaign keeps running', async () => {
    // The first message goes at once; the second waits an hour, so the campaign stays running.
    const patients = makePatients('Ctrl', 2, (i) => ({ phone: `+1202555${4000 + i}` }));
    const campaign = await createCampaign('Long', 3600, patients.map((p) => p.id));
    expect((await run(['campaigns', 'start', campaign.id, '--yes'])).exitCode).toBe(0);
    const watch = startInProcess(['campaigns', 'watch', campaign.id, '--json', '--poll', '0.05'], { env: env() });
    await watch.waitForLines(1);
    expect(await watch.stop('SIGINT')).toBe(130);
    expect(watch.stderr).toMatch(/Stopped watching\. Campaign .* is still running/);
    const stdout = watch.stdout;
    expect(jsonLines<Campaign>(stdout)[0]!.status).toBe('running');
    expect(campaignTable(sandbox.current.sb).get(campaign.id)!.status).toBe('running');
    // SIGTERM (a scheduler's timeout) ends it as every command it ends: 143.
    const termed = startInProcess(['campaigns', 'watch', campaign.id, '--json', '--poll', '0.05'], { env: env() });
    await termed.waitForLines(1);
    expect(await termed.stop('SIGTERM')).toBe(143);
    expect(termed.stderr).toContain('stopping msgctl does not pause or stop it');
    expect((await run(['campaigns', 'stop', campaign.id, '--yes'])).exitCode).toBe(0);
  }, 30_000);
});

describe('sender', () => {
  it('is the connected admin for a campaign created with OAuth (kind staff; messages via the app)', async () => {
    const { sb, credentials } = sandbox.current;
    const admin = sb.db.users.find((u) => u.email === credentials.admin.email)!;
    const token = `sandbox-test-${randomUUID()}`;
    accessTokens(sb.store).put({
      id: token, orgId: credentials.organization_id, userId: admin.id, clientId: credentials.oauth_client_id,
      scopes: ['messages.read', 'messages.write'], expiresMs: Date.now() + 3600_000, revoked: false, grantId: randomUUID(),
    });
    const oauth = { MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: token };
    const created = await run(['campaigns', 'create', '--name', 'Admin', '--body', 'From Dana', '--interval', '0', '--json'], oauth);
    expect(created.exitCode).toBe(0);
    const campaign = jsonLines<Campaign>(created.stdout)[0]!;
    expect(campaign.sender).toEqual({ id: admin.id, name: 'Dana Admin', kind: 'staff' });
    const [p] = makePatients('Oauth', 1, () => ({ phone: '+12025555000' }));
    expect((await run(['campaigns', 'recipients', 'add', campaign.id, '--patient', p!.id], oauth)).exitCode).toBe(0);
    expect((await run(['campaigns', 'start', campaign.id, '--yes'], oauth)).exitCode).toBe(0);
    const watch = await run(['campaigns', 'watch', campaign.id, '--poll', '0.05', '--json'], oauth);
    expect(watch.exitCode).toBe(0);
    const [message] = campaignMessages(campaign.id);
    expect(message).toMatchObject({ senderKind: 'staff', senderName: 'Dana Admin', sentVia: 'msgctl CLI' });
  }, 30_000);
});
