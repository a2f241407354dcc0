/**
 * Issue 29 items 4 and 10: an ambiguous numeric date (03/02/1969) is never
 * guessed — it is read in a stated order (--day-first/--month-first, the
 * profile's date_order, the region's settled order) or refused with exit 2
 * saying how to choose, on every command that takes dates; a national phone
 * number that fails suggests --region; and `send --csv` gives a patient it
 * creates what the CSV says about them.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();
const db = () => sandbox.current.sb.db;
const orgId = () => sandbox.current.credentials.organization_id;
const live = () => db().patients.filter((p) => p.orgId === orgId() && !p.deleted_at);
const writes = () => sandbox.current.testing.requests().filter((q) => q.method !== 'GET').length;
const dir = mkdtempSync(join(tmpdir(), 'msgctl-dates-'));

/** An environment whose profile "clinic" holds `profile` (and the sandbox's URL and key from the environment). */
function withProfile(profile: Record<string, unknown>) {
  const env = sandboxEnv(sandbox.current, { MSGCTL_PROFILE: 'clinic' });
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'msgctl'), { recursive: true });
  writeFileSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'config.json'), JSON.stringify({ profiles: { clinic: profile } }));
  return env;
}

let phones = 0;
/** A fresh fictional number per patient, so no create matches an earlier one. */
const nextPhone = () => `+1555555${String(7000 + phones++).padStart(4, '0')}`;

async function createWithDob(dob: string, extra: string[] = [], env = sandboxEnv(sandbox.current)) {
  return msgctl(['patients', 'create', '--first-name', 'Dee', '--last-name', 'Oh', '--phone', nextPhone(), '--dob', dob, ...extra, '--json'], { env });
}

describe('ambiguous dates are never guessed', () => {
  it('patients create refuses 03/02/1969 with no stated order: exit 2, how to choose, nothing created', async () => {
    const [before, sent] = [live().length, writes()];
    const r = await createWithDob('03/02/1969');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('ambiguous');
    expect(r.stderr).toContain('--day-first');
    expect(r.stderr).toContain('--month-first');
    expect(r.stderr).toContain('msgctl config set date_order');
    expect(live().length).toBe(before);
    expect(writes()).toBe(sent);
  });

  it.each([
    [['--day-first'], '1969-02-03'],
    [['--month-first'], '1969-03-02'],
    [['--region', 'GB'], '1969-02-03'],
    [['--region', 'US'], '1969-03-02'],
  ])('patients create %j reads it in that order', async (flags, stored) => {
    const r = await createWithDob('03/02/1969', flags);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0].date_of_birth).toBe(stored);
  });

  it('the profile states the order: date_order, else its region; a flag wins over both', async () => {
    const dayFirst = await createWithDob('03/02/1969', [], withProfile({ date_order: 'day-first' }));
    expect(jsonLines(dayFirst.stdout)[0].date_of_birth).toBe('1969-02-03');
    const gb = await createWithDob('03/02/1969', [], withProfile({ region: 'GB' }));
    expect(jsonLines(gb.stdout)[0].date_of_birth).toBe('1969-02-03');
    const us = await createWithDob('03/02/1969', [], withProfile({ region: 'US' }));
    expect(jsonLines(us.stdout)[0].date_of_birth).toBe('1969-03-02');
    const flag = await createWithDob('03/02/1969', ['--month-first'], withProfile({ date_order: 'day-first' }));
    expect(jsonLines(flag.stdout)[0].date_of_birth).toBe('1969-03-02');
  });

  it('ISO dates and dates only one order can read always work; contradicting flags are a usage error', async () => {
    expect(jsonLines((await createWithDob('1969-02-03')).stdout)[0].date_of_birth).toBe('1969-02-03');
    expect(jsonLines((await createWithDob('25/12/1970')).stdout)[0].date_of_birth).toBe('1970-12-25');
    const both = await createWithDob('1969-02-03', ['--day-first', '--month-first']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('contradict');
  });

  it('patients update --dob refuses an ambiguous date and changes nothing', async () => {
    const created = jsonLines((await createWithDob('1950-01-01')).stdout)[0];
    const r = await msgctl(['patients', 'update', created.id, '--dob', '4/5/1950'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('ambiguous');
    // The ways out once, in the hint, not again in the message.
    expect(r.stderr.split('--day-first').length - 1).toBe(1);
    expect(db().patients.get(created.id)!.date_of_birth).toBe('1950-01-01');
    const ok = await msgctl(['patients', 'update', created.id, '--dob', '4/5/1950', '--day-first', '--json'], { env: sandboxEnv(sandbox.current) });
    expect(jsonLines(ok.stdout)[0].date_of_birth).toBe('1950-05-04');
  });

  it('send --dob refuses an ambiguous date before sending anything', async () => {
    const sent = writes();
    const r = await msgctl(['send', '--to', nextPhone(), '--first-name', 'Ann', '--dob', '03/02/1969', 'Hello'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('ambiguous');
    expect(r.stderr).toContain('--day-first');
    expect(writes()).toBe(sent);
    const ok = await msgctl(['send', '--to', nextPhone(), '--first-name', 'Ann', '--dob', '03/02/1969', '--day-first', '--dry-run'], {
      env: sandboxEnv(sandbox.current),
      input: 'Hello',
    });
    expect(jsonLines(ok.stdout)[0].body.patient.date_of_birth).toBe('1969-02-03');
  });

  it('imports create refuses a file with an ambiguous birth date before uploading anything; a stated order imports it', async () => {
    const file = join(dir, 'ambiguous.csv');
    writeFileSync(file, 'First Name,Last Name,DOB,Mobile Phone\nIda,Ng,1970-01-02,+15555557901\nJo,Ng,03/02/1969,+15555557902\n');
    const sent = writes();
    const r = await msgctl(['imports', 'create', file], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/1 row has a date in column "DOB" whose day and month could be either way round \(row 3\); nothing was sent/);
    expect(r.stderr).toContain('--day-first');
    expect(writes()).toBe(sent);
    const dry = await msgctl(['imports', 'create', file, '--dry-run'], { env: sandboxEnv(sandbox.current) });
    expect(dry.exitCode).toBe(2);
    expect(dry.stderr).toContain('invalid row 3, DOB: ambiguous');
    const ok = await msgctl(['imports', 'create', file, '--day-first', '--wait', '--json'], { env: sandboxEnv(sandbox.current) });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(live().find((p) => p.phone === '+15555557902')!.date_of_birth).toBe('1969-02-03');
  });
});

describe('a national number that fails suggests --region', () => {
  it('send names --region for a number written without its country code', async () => {
    const r = await msgctl(['send', '--to', '020 7946 0958', 'Hello'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('read as US numbers');
    expect(r.stderr).toContain('--region GB');
    const ok = await msgctl(['send', '--to', '020 7946 0958', '--region', 'GB', '--dry-run', 'Hello'], { env: sandboxEnv(sandbox.current) });
    expect(jsonLines(ok.stdout)[0].body.to).toEqual({ phone: '+442079460958' });
  });

  it('patients create does too; a number with its country code gets no such hint', async () => {
    const r = await msgctl(['patients', 'create', '--first-name', 'A', '--last-name', 'B', '--phone', '020 7946 0958'], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--region');
    const plus = await msgctl(['patients', 'create', '--first-name', 'A', '--last-name', 'B', '--phone', '+1 555 555 01'], { env: sandboxEnv(sandbox.current) });
    expect(plus.exitCode).toBe(2);
    expect(plus.stderr).not.toContain('--region');
  });
});

describe('send --csv keeps what the CSV says about a patient it creates', () => {
  it('a created patient gets the row\'s name, birth date and MRN; an ambiguous date stops the batch until an order is given', async () => {
    const csv = join(dir, 'visits.csv');
    writeFileSync(csv, 'First Name,Last Name,DOB,MRN,Mobile Phone,Time\nPia,Lund,03/02/1969,PL-1,+15555557950,9:00\nOla,Berg,1971-05-06,,+15555557951,10:00\n');
    const template = ['--template', 'Hi {first_name}, see you at {time}'];
    const sent = writes();
    const refused = await msgctl(['send', '--csv', csv, ...template, '--journal', join(dir, 'visits.journal')], { env: sandboxEnv(sandbox.current) });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/1 row has a date in column "DOB" whose day and month could be either way round \(row 2\); nothing was sent/);
    expect(writes()).toBe(sent);

    const r = await msgctl(['send', '--csv', csv, ...template, '--day-first', '--journal', join(dir, 'visits.journal')], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(live().find((p) => p.phone === '+15555557950')).toMatchObject({ first_name: 'Pia', last_name: 'Lund', date_of_birth: '1969-02-03', mrn: 'PL-1' });
    expect(live().find((p) => p.phone === '+15555557951')).toMatchObject({ first_name: 'Ola', last_name: 'Berg', date_of_birth: '1971-05-06', mrn: null });
  });

  it('the README tour in its order: the batch\'s patients have names, and the roster import afterwards matches them', async () => {
    const examples = (name: string) => join(import.meta.dirname, '..', '..', 'examples', name);
    const env = sandboxEnv(sandbox.current);
    const batch = await msgctl(['send', '--csv', examples('tomorrow.csv'), '--template-file', examples('reminder.txt'), '--journal', join(dir, 'tour.journal')], { env });
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect(live().find((p) => p.phone === '+15555550301')).toMatchObject({ first_name: 'Ava', last_name: 'Marsh' });
    expect(live().find((p) => p.phone === '+15555550303')).toMatchObject({ first_name: 'Carla', last_name: 'Diaz' });
    const roster = await msgctl(['imports', 'create', examples('roster.csv'), '--wait', '--json'], { env });
    expect(roster.exitCode, roster.stderr).toBe(0);
    expect(jsonLines(roster.stdout).map((o) => o.outcome)).toEqual(['matched', 'matched', 'matched', 'created']);
    expect(live().filter((p) => p.phone === '+15555550302').map((p) => `${p.first_name} ${p.last_name}`)).toEqual(['Ben Okafor']);
  });
});
