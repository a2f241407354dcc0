import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, jsonLines } from '../helpers/in-process.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current);
const db = () => sandbox.current.sb.db;
const orgId = () => sandbox.current.credentials.organization_id;
const live = () => db().patients.filter((p) => p.orgId === orgId() && !p.deleted_at);
const patient = (first: string) => live().find((p) => p.first_name === first)!;

async function create(...flags: string[]) {
  const r = await msgctl(['patients', 'create', ...flags, '--json'], { env: env() });
  expect(r.exitCode, r.stderr).toBe(0);
  return { r, patient: jsonLines(r.stdout)[0] };
}

describe('msgctl patients create: create or match', () => {
  it('creates a new patient with the phone stored as E.164', async () => {
    const before = live().length;
    const { patient: p, r } = await create('--first-name', 'Bo', '--last-name', 'Chen', '--phone', '(555) 555-0142', '--dob', '1984-02-29', '--mrn', 'B-1');
    expect(p).toMatchObject({ first_name: 'Bo', phone: '+15555550142', date_of_birth: '1984-02-29', mrn: 'B-1', matched_by: null });
    expect(r.stderr).toBe('');
    expect(live()).toHaveLength(before + 1);
    expect(db().patients.get(p.id)).toMatchObject({ phone: '+15555550142' });
  });

  it('matches by MRN first and leaves the record unchanged', async () => {
    const before = { ...patient('Grace') };
    const { patient: p, r } = await create('--first-name', 'Other', '--last-name', 'Name', '--phone', '555 555 0123', '--mrn', 'A-1002');
    expect(p).toMatchObject({ id: before.id, matched_by: 'mrn', first_name: 'Grace' });
    // Another person's record: a warning that names both, not a quiet note.
    expect(r.stderr).toContain(`warning: no patient was created: the MRN given belongs to Grace ${before.last_name} (${before.id}), not Other Name; that record was not changed.`);
    expect(patient('Grace')).toEqual(before);
    // The same person found again is the quiet note.
    const same = await create('--first-name', ' GRÂCE ', '--last-name', before.last_name!, '--mrn', 'A-1002', '--phone', '555 555 0123');
    expect(same.r.stderr).toBe('Matched existing patient by MRN; the record was not changed.\n');
  });

  it('matches by phone when no MRN is given', async () => {
    const count = live().length;
    const { patient: p } = await create('--first-name', 'A', '--last-name', 'L', '--phone', '555.555.0123');
    expect(p).toMatchObject({ id: patient('Ada').id, matched_by: 'phone' });
    expect(live()).toHaveLength(count);
  });

  it('matches by email', async () => {
    const { patient: p } = await create('--first-name', 'E', '--last-name', 'E', '--email', 'emma@example.com');
    expect(p).toMatchObject({ id: patient('Emma').id, matched_by: 'email' });
  });

  it('creates a new record when the phone matches but the MRNs differ (a family member)', async () => {
    const { patient: p } = await create('--first-name', 'Sam', '--last-name', 'Lovelace', '--phone', '5555550123', '--mrn', 'A-1099');
    expect(p.matched_by).toBeNull();
    expect(p.id).not.toBe(patient('Ada').id);
    expect(live().filter((x) => x.phone === '+15555550123').map((x) => x.first_name).sort()).toEqual(['Ada', 'Sam']);
  });

  it.each([
    [['--first-name', 'X', '--last-name', 'Y'], /Give --phone, --email, or both/],
    [['--first-name', 'X', '--last-name', 'Y', '--phone', '555-01'], /--phone "555-01"/],
    [['--first-name', 'X', '--last-name', 'Y', '--phone', '5555550143', '--dob', '1990-02-30'], /--dob "1990-02-30"/],
    [['--first-name', 'X', '--phone', '5555550143'], /required option '--last-name/],
  ])('refuses %j locally with exit 2 and no request', async (flags, message) => {
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['patients', 'create', ...flags], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(sandbox.current.testing.requests().length).toBe(before);
  });
});

describe('msgctl patients list / get / update / delete', () => {
  it('lists by phone in any format, by MRN, and everyone, as JSON lines', async () => {
    const byPhone = await msgctl(['patients', 'list', '--phone', '(555) 555-0150', '--json'], { env: env() });
    expect(byPhone.exitCode).toBe(0);
    expect(jsonLines(byPhone.stdout).map((p) => p.first_name).sort()).toEqual(['Alex', 'Jamie']);
    const byMrn = await msgctl(['patients', 'list', '--mrn', 'A-3001', '--json'], { env: env() });
    expect(jsonLines(byMrn.stdout)).toEqual([expect.objectContaining({ first_name: 'Olive', sms_opted_out: true })]);
    const all = await msgctl(['patients', 'list', '--all', '--json'], { env: env() });
    expect(jsonLines(all.stdout).map((p) => p.id).sort()).toEqual(live().map((p) => p.id).sort());
  });

  it('pages through patients with --limit and --all across page boundaries', async () => {
    // More than one page of 100.
    for (let i = 0; i < 120; i++) {
      db().patients.put({
        id: randomUUID(), orgId: orgId(), first_name: `Bulk${i}`, last_name: 'Patient', date_of_birth: null,
        phone: null, email: `bulk${i}@example.com`, mrn: null, optedOutFrom: [], created_at: new Date(Date.now() + i).toISOString(), deleted_at: null,
      });
    }
    const all = await msgctl(['patients', 'list', '--all', '--json'], { env: env() });
    const ids = jsonLines(all.stdout).map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(live().length);
    const limited = await msgctl(['patients', 'list', '--limit', '3'], { env: env() });
    expect(limited.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('gets one patient, and refuses a non-UUID id locally', async () => {
    const r = await msgctl(['patients', 'get', patient('Ada').id, '--json'], { env: env() });
    expect(jsonLines(r.stdout)).toEqual([expect.objectContaining({ id: patient('Ada').id, email: 'ada@example.com' })]);
    const bad = await msgctl(['patients', 'get', 'ada'], { env: env() });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/not a patient id/);
  });

  it('exits 4 for an unknown id and for another organization\'s patient', async () => {
    const lou = db().patients.find((p) => p.first_name === 'Lou')!;
    for (const id of [randomUUID(), lou.id]) {
      const r = await msgctl(['patients', 'get', id], { env: env() });
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toMatch(/not_found/);
    }
  });

  it('updates only the given fields; --clear-email sends null', async () => {
    const before = { ...patient('Ada') };
    const r = await msgctl(['patients', 'update', before.id, '--clear-email', '--phone', '555 555 0125', '--json'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ email: null, phone: '+15555550125', mrn: 'A-1001', first_name: 'Ada' });
    expect(db().patients.get(before.id)).toMatchObject({ email: null, phone: '+15555550125', mrn: before.mrn, date_of_birth: before.date_of_birth });
  });

  it('refuses to clear the only contact method with exit 6, changing nothing', async () => {
    const r = await msgctl(['patients', 'update', patient('Emma').id, '--clear-email'], { env: env() });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/- \/email: .*\[required\]/);
    expect(patient('Emma').email).toBe('emma@example.com');
  });

  it('delete without --yes and without a terminal exits 2 and deletes nothing', async () => {
    const id = patient('Grace').id;
    const before = sandbox.current.testing.requests().length;
    const r = await msgctl(['patients', 'delete', id], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(sandbox.current.testing.requests().length).toBe(before);
    expect(db().patients.get(id)!.deleted_at).toBeNull();
  });

  it('delete --yes removes the patient: 404 afterwards, no longer listed or matched', async () => {
    const id = patient('Grace').id;
    const r = await msgctl(['patients', 'delete', id, '--yes'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Deleted patient/);
    expect(db().patients.get(id)!.deleted_at).not.toBeNull();
    expect((await msgctl(['patients', 'get', id], { env: env() })).exitCode).toBe(4);
    expect((await msgctl(['patients', 'delete', id, '--yes'], { env: env() })).exitCode).toBe(4);
    const list = await msgctl(['patients', 'list', '--phone', '5555550124', '--json'], { env: env() });
    expect(list.stdout).toBe('');
  });
});
