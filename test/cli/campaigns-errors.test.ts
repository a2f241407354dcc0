/**
 * `msgctl campaigns`: every 409 and 422 of api-spec §4.6 reached through the
 * CLI with its exit code, local refusals (exit 2, nothing sent), scopes,
 * recipients add/remove outcomes (exit 10) including CSV rows by MRN and
 * phone, archive filtering, and an example in every command's --help.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';
import { createPatient } from '../../src/sandbox/domain/patients.js';
import { campaignTable } from '../../src/sandbox/domain/campaigns.js';
import type { Campaign } from '../../src/contract/api.js';

// Slow interval and normal time: a started campaign stays running for the whole file.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current);
const run = (args: string[], extra: { input?: string; env?: Record<string, string | undefined> } = {}) =>
  msgctl(args, { env: extra.env ?? env(), input: extra.input });

async function create(name: string, extra: string[] = []): Promise<Campaign> {
  const r = await run(['campaigns', 'create', '--name', name, '--body', 'Time for your check-up.', '--json', ...extra]);
  expect(r.stderr).not.toMatch(/error/);
  expect(r.exitCode).toBe(0);
  return jsonLines<Campaign>(r.stdout)[0]!;
}

function seededPatients() {
  const { sb, credentials } = sandbox.current;
  const mine = sb.db.patients.filter((p) => p.orgId === credentials.organization_id);
  const byName = (first: string) => mine.find((p) => p.first_name === first)!;
  return { ada: byName('Ada'), grace: byName('Grace'), olive: byName('Olive'), emma: byName('Emma'), all: mine };
}

async function add(id: string, ...patients: string[]) {
  const r = await run(['campaigns', 'recipients', 'add', id, ...patients.flatMap((p) => ['--patient', p]), '--json']);
  expect(r.exitCode).toBe(0);
  return jsonLines(r.stdout)[0];
}

/** A running campaign with a slow interval (a message every hour): it stays running. */
async function runningCampaign(name: string): Promise<Campaign> {
  const c = await create(name, ['--interval', '3600']);
  const { ada, grace } = seededPatients();
  await add(c.id, ada.id, grace.id);
  const r = await run(['campaigns', 'start', c.id, '--json', '--yes']);
  expect(r.exitCode).toBe(0);
  return jsonLines<Campaign>(r.stdout)[0]!;
}

function expectProblem(r: { exitCode: number; stderr: string; stdout: string }, exit: number, code: string) {
  expect(r.stdout).toBe('');
  expect(r.exitCode).toBe(exit);
  expect(jsonLines(r.stderr)[0]).toMatchObject({ code });
}

describe('campaigns create', () => {
  it('creates a draft with zero counts, the key as sender, and the default number', async () => {
    const c = await create('Flu shots');
    expect(c).toMatchObject({
      name: 'Flu shots',
      status: 'draft',
      channel: 'secure',
      body: 'Time for your check-up.',
      phone_number: { number: '+15555550100', team: 'Front Desk' },
      sender: { name: 'Sandbox full access', kind: 'api_key' },
      send_interval_seconds: 1,
      counts: { recipients: 0, pending: 0, sent: 0, delivered: 0, failed: 0, skipped: 0 },
      archived: false,
      started_at: null,
      finished_at: null,
    });
  });

  it('takes --from in any format, --channel, --interval and a body file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-campaign-'));
    writeFileSync(join(dir, 'body.txt'), 'Recall letter\n');
    const r = await run([
      'campaigns', 'create', '--name', 'Recall', '--body-file', join(dir, 'body.txt'),
      '--channel', 'sms', '--from', '(555) 555-0110', '--interval', '2.5', '--json',
    ]);
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({
      body: 'Recall letter', channel: 'sms', phone_number: { number: '+15555550110' }, send_interval_seconds: 2.5,
    });
  });

  it('refuses locally, before any request, a body over 1,600 characters or a missing body (exit 2)', async () => {
    const before = campaignTable(sandbox.current.sb).size;
    const long = await run(['campaigns', 'create', '--name', 'Long', '--body', 'x'.repeat(1601)]);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toMatch(/1601 characters; the limit is 1600/);
    const none = await run(['campaigns', 'create', '--name', 'None']);
    expect(none.exitCode).toBe(2);
    const badInterval = await run(['campaigns', 'create', '--name', 'I', '--body', 'b', '--interval', '-1']);
    expect(badInterval.exitCode).toBe(2);
    expect(campaignTable(sandbox.current.sb).size).toBe(before);
  });

  it('422 validation_failed for a name over 200 characters or a number that is not the clinic\'s (exit 6)', async () => {
    const name = await run(['campaigns', 'create', '--name', 'n'.repeat(201), '--body', 'b', '--json']);
    expectProblem(name, 6, 'validation_failed');
    expect(jsonLines(name.stderr)[0].field_errors).toEqual([expect.objectContaining({ path: '/name', code: 'too_long' })]);
    const from = await run(['campaigns', 'create', '--name', 'x', '--body', 'b', '--from', '+15555550199', '--json']);
    expectProblem(from, 6, 'validation_failed');
    expect(jsonLines(from.stderr)[0].field_errors[0]).toMatchObject({ path: '/from', code: 'unknown_number' });
  });

  it('422 from_required for a key without a default number in an org with several (exit 6)', async () => {
    const { sb, credentials } = sandbox.current;
    sb.db.apiKeys.put({
      id: randomUUID(), orgId: credentials.organization_id, name: 'No default', token: 'msk_test_nodefault',
      scopes: ['messages.read', 'messages.write'], defaultPhoneNumberId: null, deletedAt: null,
    });
    const r = await run(['campaigns', 'create', '--name', 'x', '--body', 'b', '--json'], {
      env: sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'msk_test_nodefault' }),
    });
    expectProblem(r, 6, 'from_required');
  });

  it('409 idempotency_key_reused when a key is reused with another body (exit 5); the same body replays', async () => {
    const key = randomUUID();
    const first = await create('Once', ['--idempotency-key', key]);
    const again = await create('Once', ['--idempotency-key', key]);
    expect(again.id).toBe(first.id);
    const other = await run(['campaigns', 'create', '--name', 'Other', '--body', 'b', '--idempotency-key', key, '--json']);
    expectProblem(other, 5, 'idempotency_key_reused');
  });
});

describe('campaign state rules', () => {
  it('422 validation_failed when starting a campaign without recipients (exit 6)', async () => {
    const c = await create('Empty');
    const r = await run(['campaigns', 'start', c.id, '--json', '--yes']);
    expectProblem(r, 6, 'validation_failed');
  });

  it('409 campaign_not_running: pause of a draft or paused campaign, stop of a draft (exit 5)', async () => {
    const draft = await create('Draft');
    expectProblem(await run(['campaigns', 'pause', draft.id, '--json']), 5, 'campaign_not_running');
    expectProblem(await run(['campaigns', 'stop', draft.id, '--yes', '--json']), 5, 'campaign_not_running');
    const c = await runningCampaign('Pause twice');
    expect((await run(['campaigns', 'pause', c.id])).exitCode).toBe(0);
    expectProblem(await run(['campaigns', 'pause', c.id, '--json']), 5, 'campaign_not_running');
  });

  it('409 campaign_not_editable on a running campaign: body, channel, from, archive, start, delete, recipients (exit 5)', async () => {
    const c = await runningCampaign('Busy');
    const { emma } = seededPatients();
    for (const args of [
      ['update', c.id, '--body', 'new'],
      ['update', c.id, '--channel', 'sms'],
      ['update', c.id, '--from', '+15555550110'],
      ['archive', c.id],
      ['start', c.id, '--yes'],
      ['delete', c.id, '--yes'],
      ['recipients', 'add', c.id, '--patient', emma.id],
      ['recipients', 'remove', c.id, '--patient', emma.id],
    ]) {
      const r = await run(['campaigns', ...args, '--json']);
      expectProblem(r, 5, 'campaign_not_editable');
    }
    // Name and interval change in any status.
    const renamed = await run(['campaigns', 'update', c.id, '--name', 'Busy (renamed)', '--interval', '7200', '--json']);
    expect(renamed.exitCode).toBe(0);
    expect(jsonLines(renamed.stdout)[0]).toMatchObject({ name: 'Busy (renamed)', send_interval_seconds: 7200, status: 'running' });
  });

  it('paused: body and channel change, from does not (409), recipients can be added', async () => {
    const c = await runningCampaign('Paused edits');
    expect((await run(['campaigns', 'pause', c.id])).exitCode).toBe(0);
    const body = await run(['campaigns', 'update', c.id, '--body', 'Corrected text', '--channel', 'sms', '--json']);
    expect(body.exitCode).toBe(0);
    expect(jsonLines(body.stdout)[0]).toMatchObject({ body: 'Corrected text', channel: 'sms', status: 'paused' });
    expectProblem(await run(['campaigns', 'update', c.id, '--from', '+15555550110', '--json']), 5, 'campaign_not_editable');
    expectProblem(await run(['campaigns', 'delete', c.id, '--yes', '--json']), 5, 'campaign_not_editable');
    const { emma } = seededPatients();
    expect((await run(['campaigns', 'recipients', 'add', c.id, '--patient', emma.id])).exitCode).toBe(0);
  });

  it('stopped and completed campaigns refuse start, body and recipients (409) but can be archived and deleted', async () => {
    const c = await runningCampaign('To stop');
    const stop = await run(['campaigns', 'stop', c.id, '--yes', '--json']);
    expect(stop.exitCode).toBe(0);
    const stopped = jsonLines<Campaign>(stop.stdout)[0]!;
    expect(stopped.status).toBe('stopped');
    expect(stopped.finished_at).not.toBeNull();
    expectProblem(await run(['campaigns', 'start', c.id, '--json', '--yes']), 5, 'campaign_not_editable');
    expectProblem(await run(['campaigns', 'stop', c.id, '--yes', '--json']), 5, 'campaign_not_running');
    expectProblem(await run(['campaigns', 'update', c.id, '--body', 'x', '--json']), 5, 'campaign_not_editable');
    const { emma } = seededPatients();
    expectProblem(await run(['campaigns', 'recipients', 'add', c.id, '--patient', emma.id, '--json']), 5, 'campaign_not_editable');

    expect((await run(['campaigns', 'archive', c.id])).exitCode).toBe(0);
    const del = await run(['campaigns', 'delete', c.id, '--yes', '--json']);
    expect(del.exitCode).toBe(0);
    expect(jsonLines(del.stdout)[0]).toEqual({ id: c.id, deleted: true });
    expectProblem(await run(['campaigns', 'get', c.id, '--json']), 4, 'not_found');
  });

  it('an archived draft is hidden from list, shown with --archived, and cannot start until unarchived', async () => {
    const c = await create('Archived draft');
    const { ada } = seededPatients();
    await add(c.id, ada.id);
    expect((await run(['campaigns', 'archive', c.id])).exitCode).toBe(0);
    const current = jsonLines<Campaign>((await run(['campaigns', 'list', '--all', '--json'])).stdout);
    expect(current.map((x) => x.id)).not.toContain(c.id);
    const archived = jsonLines<Campaign>((await run(['campaigns', 'list', '--archived', '--all', '--json'])).stdout);
    expect(archived.map((x) => x.id)).toContain(c.id);
    expect(archived.every((x) => x.archived)).toBe(true);
    expectProblem(await run(['campaigns', 'start', c.id, '--json', '--yes']), 5, 'campaign_not_editable');
    expect((await run(['campaigns', 'unarchive', c.id])).exitCode).toBe(0);
    const drafts = jsonLines<Campaign>((await run(['campaigns', 'list', '--status', 'draft', '--all', '--json'])).stdout);
    expect(drafts.map((x) => x.id)).toContain(c.id);
    expect(drafts.every((x) => x.status === 'draft')).toBe(true);
  });

  it('stop asks for confirmation: without a terminal and without --yes it refuses (exit 2) and nothing changes', async () => {
    const c = await runningCampaign('Confirm stop');
    const r = await run(['campaigns', 'stop', c.id]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(campaignTable(sandbox.current.sb).get(c.id)!.status).toBe('running');
  });
});

describe('campaigns ids, scopes and lists', () => {
  it('refuses a non-UUID id locally (exit 2) and reports an unknown one as not found (exit 4)', async () => {
    expect((await run(['campaigns', 'get', 'nope'])).exitCode).toBe(2);
    expectProblem(await run(['campaigns', 'get', randomUUID(), '--json']), 4, 'not_found');
  });

  it('reads need messages.read: the reminders-only key gets insufficient_scope (exit 3)', async () => {
    const limited = sandboxEnv(sandbox.current, { MSGCTL_API_KEY: sandbox.current.credentials.limited_api_key });
    expectProblem(await run(['campaigns', 'list', '--json'], { env: limited }), 3, 'insufficient_scope');
  });

  it('another organization cannot see the campaign (404)', async () => {
    const c = await create('Private');
    const other = sandboxEnv(sandbox.current, { MSGCTL_API_KEY: sandbox.current.credentials.other_org_api_key });
    expectProblem(await run(['campaigns', 'get', c.id, '--json'], { env: other }), 4, 'not_found');
  });

  it('prints tab-separated rows when piped', async () => {
    const c = await create('Piped');
    const r = await run(['campaigns', 'list', '--all']);
    const line = r.stdout.split('\n').find((l) => l.startsWith(c.id))!;
    expect(line.split('\t')).toEqual([c.id, 'Piped', 'draft', 'secure', '+15555550100', '0', '0', '0', '0', '0', '0', 'false']);
  });
});

describe('campaigns recipients add/remove', () => {
  it('reports unknown ids and exits 10; patients already present are not failures', async () => {
    const c = await create('Adds');
    const { ada, grace } = seededPatients();
    const ghost = randomUUID();
    const r = await run(['campaigns', 'recipients', 'add', c.id, '--patient', ada.id, '--patient', ghost, '--patient', grace.id, '--json']);
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toContain(`patient ${ghost} was not found`);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ added: 2, already_present: 0, not_found: [ghost] });
    // Piped, the summary has the JSON summary's field names (docs/campaigns.md), recipients being the campaign's total.
    const plain = await run(['campaigns', 'recipients', 'add', c.id, '--patient', ghost]);
    expect(plain.stdout).toBe(
      [`campaign_id\t${c.id}`, 'added\t0', 'already_present\t0', `not_found\t${ghost}`, 'unresolved\t', 'recipients\t2'].join('\n') + '\n',
    );
    const again = await run(['campaigns', 'recipients', 'add', c.id, '--patient', ada.id, '--json']);
    expect(again.exitCode).toBe(0);
    expect(jsonLines(again.stdout)[0]).toMatchObject({ added: 0, already_present: 1, campaign: { counts: { recipients: 2 } } });
    // For a person: counts in words that agree with them.
    const onTerminal = await msgctl(['campaigns', 'recipients', 'add', c.id, '--patient', ada.id, '--patient', seededPatients().olive.id], { env: sandboxEnv(sandbox.current), tty: true });
    expect(onTerminal.stderr).toContain('Added 1 recipient (1 was already on the campaign).');
  });

  it('refuses a --patient that is not a UUID before sending anything (exit 2)', async () => {
    const c = await create('Bad id');
    const r = await run(['campaigns', 'recipients', 'add', c.id, '--patient', '+15555550123']);
    expect(r.exitCode).toBe(2);
    expect(campaignTable(sandbox.current.sb).get(c.id)).toBeDefined();
  });

  it('resolves a CSV of ids, MRNs and phones in file order and names the rows it could not add (exit 10)', async () => {
    const { sb, credentials } = sandbox.current;
    const { ada, grace, emma } = seededPatients();
    const zoe = createPatient(sb, credentials.organization_id, { first_name: 'Zoe', last_name: 'Zed', phone: '+12025550177' });
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-campaign-'));
    const file = join(dir, 'list.csv');
    writeFileSync(
      file,
      [
        'Patient ID,MRN,Mobile Phone',
        `${grace.id},,`, // row 2: by id
        ',A-1001,', // row 3: Ada by MRN
        ',,(202) 555-0177', // row 4: Zoe by phone
        ',,+15555550150', // row 5: shared by the Rivera family
        ',A-9999,', // row 6: unknown MRN
        '', // row 7: blank, skipped
        ',,555-0199-999', // row 8: not a phone
        `${randomUUID()},,`, // row 9: unknown id
        ',A-4001,', // row 10: Emma by MRN
      ].join('\n'),
    );
    const c = await create('From CSV');
    const r = await run(['campaigns', 'recipients', 'add', c.id, '--csv', file, '--json']);
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toMatch(/row 5: phone \+15555550150 is shared by 2 patients/);
    expect(r.stderr).toMatch(/row 6: no patient with MRN A-9999/);
    expect(r.stderr).toMatch(/row 8: phone "555-0199-999"/);
    expect(r.stderr).toMatch(/row 9: patient [0-9a-f-]{36} was not found/);
    const summary = jsonLines(r.stdout)[0];
    expect(summary).toMatchObject({ added: 4, already_present: 0 });
    expect(summary.unresolved.map((u: { row: number }) => u.row)).toEqual([5, 6, 8]);
    // On a terminal the rows are called CSV rows (a bare "unresolved: 5 6 8" read like counts).
    const again = await msgctl(['campaigns', 'recipients', 'add', c.id, '--csv', file], { env: sandboxEnv(sandbox.current), tty: true });
    expect(again.stdout).toMatch(/^unresolved CSV rows: +5 6 8$/m);
    const list = await run(['campaigns', 'recipients', 'list', c.id, '--json']);
    expect(jsonLines(list.stdout).map((x) => x.patient.id)).toEqual([grace.id, ada.id, zoe.id, emma.id]);
  });

  it('reads a mobile column before a plain phone, as every CSV command does, and notes the one it does not use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-campaign-'));
    const file = join(dir, 'two-phones.csv');
    // Zoe's number in the mobile column, a number nobody has in the plain one (it came first, and was used).
    writeFileSync(file, 'Phone,Mobile Phone\n+15555550000,(202) 555-0177\n');
    const c = await create('Mobile first');
    const r = await run(['campaigns', 'recipients', 'add', c.id, '--csv', file, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('note: "Phone" is not used: "Mobile Phone" is used for phone');
    expect(jsonLines(r.stdout)[0]).toMatchObject({ added: 1 });
  });

  it('refuses a CSV without any patient column (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-campaign-'));
    const file = join(dir, 'names.csv');
    writeFileSync(file, 'First Name,Last Name\nAda,Lovelace\n');
    const c = await create('No column');
    const r = await run(['campaigns', 'recipients', 'add', c.id, '--csv', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/no patient_id, MRN or phone column/);
  });

  it('removes pending recipients; ids not on the campaign exit 10', async () => {
    const c = await create('Removal');
    const { ada, grace, olive } = seededPatients();
    await add(c.id, ada.id, grace.id);
    const r = await run(['campaigns', 'recipients', 'remove', c.id, '--patient', ada.id, '--patient', olive.id, '--json']);
    expect(r.exitCode).toBe(10);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ removed: [ada.id], not_found: [olive.id], campaign: { counts: { recipients: 1 } } });
  });
});

describe('campaigns --help', () => {
  const commands = [
    [], ['create'], ['list'], ['get'], ['update'], ['start'], ['pause'], ['stop'], ['archive'], ['unarchive'], ['delete'],
    ['watch'], ['recipients'], ['recipients', 'list'], ['recipients', 'add'], ['recipients', 'remove'],
  ];
  it.each(commands.map((c) => [c.join(' ') || '(group)', c]))('%s has an example', async (_label, sub) => {
    const r = await run(['campaigns', ...(sub as string[]), '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n[\s\S]*msgctl campaigns/);
  });

  it('watch --help documents its exit codes', async () => {
    const r = await run(['campaigns', 'watch', '--help']);
    expect(r.stdout).toMatch(/Exit status:\n {2}0 +the campaign completed\n {2}1 +the campaign was stopped\n {2}130 /);
  });
});
