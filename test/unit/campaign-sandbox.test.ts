/**
 * The sandbox's campaign rules below HTTP: counting, the sender's slots
 * (pause lets the message in progress finish, stop cancels it), recovery
 * after a restart, field rules, recipient edge cases, and --data round trip.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxStore } from '../../src/sandbox/store/store.js';
import { Clock } from '../../src/sandbox/clock.js';
import { SandboxContext } from '../../src/sandbox/context.js';
import { seedWorld, type SeededCredentials } from '../../src/sandbox/seed.js';
import { findPrincipal } from '../../src/sandbox/domain/principal.js';
import { sendPatientMessage, senderFromPrincipal } from '../../src/sandbox/domain/patient-messages.js';
import { createPatient, deletePatient } from '../../src/sandbox/domain/patients.js';
import { startDeliveryWorker } from '../../src/sandbox/workers/delivery.js';
import { startCampaignSender } from '../../src/sandbox/workers/campaign-sender.js';
import { startSandbox } from '../../src/sandbox/start.js';
import {
  campaignTable,
  campaignView,
  countRecipients,
  pauseCampaign,
  recipientsOf,
  setRecipientStatus,
  startCampaign,
  stopCampaign,
  type CampaignRecord,
} from '../../src/sandbox/domain/campaigns.js';
import { createCampaign, updateCampaign } from '../../src/sandbox/domain/campaigns-edit.js';
import { addRecipients, removeRecipients } from '../../src/sandbox/domain/campaigns-recipients.js';
import { RECIPIENT_STATUSES } from '../../src/contract/api.js';
import { problemOf } from '../helpers/problems.js';

let sb: SandboxContext;
let creds: SeededCredentials;
let stops: (() => void)[] = [];
beforeEach(() => {
  // 1 sandbox second = 10 real ms.
  sb = new SandboxContext(new SandboxStore(), new Clock(0.01), { port: 0, seed: 1, rateLimit: 0, timeScale: 0.01 });
  creds = seedWorld(sb);
  stops = [];
});
afterEach(() => {
  for (const stop of stops) stop();
  sb.cancelTimers();
});
const startWorkers = () => stops.push(startDeliveryWorker(sb), startCampaignSender(sb));
const sender = () => senderFromPrincipal(findPrincipal(sb, creds.api_key)!);
const patients = (n: number) =>
  Array.from({ length: n }, (_, i) => createPatient(sb, creds.organization_id, { first_name: `P${i}`, last_name: 'T', phone: `+1202555${1000 + i}` }));
const messagesOf = (c: CampaignRecord) => sb.db.messages.filter((m) => m.campaignId === c.id);
const statuses = (c: CampaignRecord) => recipientsOf(sb, c.id).map((r) => r.status);
const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
};
function campaignWith(n: number, fields: Record<string, unknown> = {}): CampaignRecord {
  const c = createCampaign(sb, sender(), { name: 'C', body: 'Hello', ...fields });
  addRecipients(sb, c, { patient_ids: patients(n).map((p) => p.id) });
  return c;
}

describe('counts', () => {
  it('put each of the nine statuses in exactly one bucket (delivered also counts as sent)', () => {
    expect(countRecipients(RECIPIENT_STATUSES.map((status) => ({ status })))).toEqual({
      recipients: 9, pending: 2, sent: 3, delivered: 2, failed: 2, skipped: 2,
    });
  });
});

describe('the sender', () => {
  it('shows the recipient as sending, and a pause during it still lets that one message go out', async () => {
    startWorkers();
    const c = campaignWith(5, { send_interval_seconds: 2 }); // handoff after 200 ms sandbox = 2 ms real
    startCampaign(sb, c);
    expect(statuses(c)[0]).toBe('sending');
    pauseCampaign(sb, c);
    await until(() => !statuses(c).includes('sending'));
    expect(statuses(c)).toEqual(['sent', 'pending', 'pending', 'pending', 'pending']);
    await new Promise((r) => setTimeout(r, 100)); // 5 intervals
    expect(messagesOf(c)).toHaveLength(1);
    startCampaign(sb, c);
    await until(() => c.status === 'completed');
    expect(messagesOf(c)).toHaveLength(5);
    expect(campaignView(sb, c).finished_at).not.toBeNull();
  });

  it('stop during sending cancels that recipient: nothing is sent after stop', async () => {
    startWorkers();
    const c = campaignWith(3, { send_interval_seconds: 2 });
    startCampaign(sb, c);
    stopCampaign(sb, c);
    await new Promise((r) => setTimeout(r, 60));
    expect(messagesOf(c)).toHaveLength(0);
    expect(statuses(c)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(campaignView(sb, c).counts).toMatchObject({ recipients: 3, pending: 0, skipped: 3 });
  });

  it('marks a recipient failed with the problem when the patient was deleted after being added', async () => {
    startWorkers();
    const c = campaignWith(2, { send_interval_seconds: 0 });
    deletePatient(sb, sb.db.patients.get(recipientsOf(sb, c.id)[0]!.patientId)!);
    startCampaign(sb, c);
    await until(() => c.status === 'completed');
    expect(recipientsOf(sb, c.id)[0]).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
  });

  it('applies a changed interval to the wait in progress', async () => {
    startWorkers();
    const c = campaignWith(4, { send_interval_seconds: 3600 }); // 36 s real between messages
    startCampaign(sb, c);
    await until(() => messagesOf(c).length === 1);
    await new Promise((r) => setTimeout(r, 30));
    expect(messagesOf(c)).toHaveLength(1);
    updateCampaign(sb, c, { send_interval_seconds: 1 });
    await until(() => c.status === 'completed', 2000);
    expect(messagesOf(c)).toHaveLength(4);
  });

  it('after a restart, resends a recipient left sending, never one already sent, and follows missed deliveries', async () => {
    const c = campaignWith(3, { send_interval_seconds: 0 });
    const [first, second] = recipientsOf(sb, c.id);
    // State as a crash could leave it: running, first sent (and since delivered), second mid-send.
    c.status = 'running';
    c.started_at = sb.clock.iso();
    const { record } = sendPatientMessage(sb, c.sender, { to: { patient_id: first!.patientId }, body: c.body }, { campaignId: c.id });
    record.delivery = { status: 'delivered', error: null, updated_at: sb.clock.iso() };
    setRecipientStatus(sb, first!, 'sent', { messageId: record.id });
    setRecipientStatus(sb, second!, 'sending');

    startWorkers();
    await until(() => c.status === 'completed');
    expect(messagesOf(c)).toHaveLength(3);
    expect(new Set(messagesOf(c).map((m) => m.patientId)).size).toBe(3);
    expect(recipientsOf(sb, c.id)[0]!.status).not.toBe('sent');
  });
});

describe('field and status rules', () => {
  it('a malformed PATCH is 422 whatever the status; a forbidden field for the status is 409', () => {
    const c = campaignWith(1);
    c.status = 'running';
    expect(problemOf(() => updateCampaign(sb, c, { body: '' })).code).toBe('validation_failed');
    expect(problemOf(() => updateCampaign(sb, c, { status: 'draft' })).fieldErrors[0]).toMatchObject({ path: '/status', code: 'unknown_field' });
    expect(problemOf(() => updateCampaign(sb, c, { body: 'ok' })).code).toBe('campaign_not_editable');
    c.status = 'paused';
    expect(problemOf(() => updateCampaign(sb, c, { from: '+15555550110' })).code).toBe('campaign_not_editable');
    updateCampaign(sb, c, { body: 'fine', archived: true });
    expect(c).toMatchObject({ body: 'fine', archived: true });
  });

  it('validates create bodies field by field', () => {
    const p = problemOf(() => createCampaign(sb, sender(), { body: 'x'.repeat(1601), channel: 'fax', send_interval_seconds: '1' }));
    expect(p.status).toBe(422);
    expect(p.fieldErrors.map((e) => `${e.path}:${e.code}`).sort()).toEqual([
      '/body:too_long', '/channel:invalid', '/name:required', '/send_interval_seconds:invalid_type',
    ]);
    // 1,600 emoji are 1,600 characters (code points), not 3,200.
    expect(createCampaign(sb, sender(), { name: 'E', body: '😀'.repeat(1600) }).body).toHaveLength(3200);
  });

  it('recipients: at most 1,000 ids per call; only pending ones can be removed', () => {
    const c = campaignWith(2, { send_interval_seconds: 0 });
    const tooMany = Array.from({ length: 1001 }, () => crypto.randomUUID());
    expect(problemOf(() => addRecipients(sb, c, { patient_ids: tooMany })).fieldErrors[0]).toMatchObject({ code: 'too_long' });
    const [sent, pending] = recipientsOf(sb, c.id);
    setRecipientStatus(sb, sent!, 'sent');
    const result = removeRecipients(sb, c, { patient_ids: [sent!.patientId, pending!.patientId] });
    expect(result).toMatchObject({ removed: [pending!.patientId], not_removable: [sent!.patientId], not_found: [] });
    expect(result.campaign.counts.recipients).toBe(1);
  });
});

describe('--data', () => {
  it('keeps campaigns and recipients across a restart and resumes a running campaign', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'msgctl-campaign-data-')), 'state.json');
    const first = await startSandbox({ dataFile, timeScale: 0.01, rateLimit: 0 });
    const key = findPrincipal(first.sb, first.credentials.api_key)!;
    const c = createCampaign(first.sb, senderFromPrincipal(key), { name: 'Persist', body: 'Hi', send_interval_seconds: 3600 });
    const ids = Array.from({ length: 3 }, (_, i) =>
      createPatient(first.sb, key.orgId, { first_name: `D${i}`, last_name: 'T', phone: `+1202555${5000 + i}` }).id);
    addRecipients(first.sb, c, { patient_ids: ids });
    startCampaign(first.sb, c);
    await until(() => first.sb.db.messages.filter((m) => m.campaignId === c.id).length === 1);
    await first.close();

    const second = await startSandbox({ dataFile, timeScale: 0.01, rateLimit: 0 });
    try {
      const again = campaignTable(second.sb).get(c.id)!;
      expect(again.status).toBe('running');
      expect(recipientsOf(second.sb, c.id).map((r) => r.patientId)).toEqual(ids);
      updateCampaign(second.sb, again, { send_interval_seconds: 0 });
      pauseCampaign(second.sb, again);
      startCampaign(second.sb, again);
      await until(() => again.status === 'completed');
      expect(second.sb.db.messages.filter((m) => m.campaignId === c.id)).toHaveLength(3);
    } finally {
      await second.close();
    }
  });
});
