import { beforeEach, describe, expect, it } from 'vitest';
import { SandboxStore } from '../../src/sandbox/store/store.js';
import { Clock } from '../../src/sandbox/clock.js';
import { SandboxContext } from '../../src/sandbox/context.js';
import { seedWorld, type SeededCredentials } from '../../src/sandbox/seed.js';
import {
  createOrMatchPatient,
  deletePatient,
  findPatient,
  patientsByPhone,
  updatePatient,
  validatePatientFields,
} from '../../src/sandbox/domain/patients.js';

let sb: SandboxContext;
let creds: SeededCredentials;
beforeEach(() => {
  sb = new SandboxContext(new SandboxStore(), new Clock(1), { port: 0, seed: 1, rateLimit: 0, timeScale: 1 });
  creds = seedWorld(sb);
});
const org = () => creds.organization_id;
const byName = (first: string) => sb.db.patients.find((p) => p.first_name === first && p.orgId === org())!;

describe('validatePatientFields', () => {
  it('normalises phones in any common format to E.164 and accepts a real date', () => {
    for (const phone of ['(555) 555-0123', '555.555.0123', '+1 555 555 0123', '5555550123']) {
      const r = validatePatientFields({ first_name: 'A', last_name: 'B', phone, date_of_birth: '2000-02-29' }, 'create');
      expect(r.errors).toEqual([]);
      expect(r.fields).toMatchObject({ phone: '+15555550123', date_of_birth: '2000-02-29' });
    }
  });

  it('requires names and a phone or email on create, with JSON-pointer paths', () => {
    const r = validatePatientFields({}, 'create');
    expect(r.errors.map((e) => [e.path, e.code])).toEqual([
      ['/first_name', 'required'],
      ['/last_name', 'required'],
      ['/phone', 'required'],
    ]);
  });

  it('reports every bad field at once', () => {
    const r = validatePatientFields(
      { first_name: 7, last_name: 'B', phone: '12', email: 'nope', date_of_birth: '2001-02-29', mrn: '' },
      'create',
    );
    expect(r.errors.map((e) => e.path).sort()).toEqual(['/date_of_birth', '/email', '/first_name', '/mrn', '/phone']);
  });

  it('on update takes only sent fields, lets null clear nullable ones, and refuses null names', () => {
    expect(validatePatientFields({ email: null, mrn: 'X' }, 'update')).toEqual({ fields: { email: null, mrn: 'X' }, errors: [] });
    expect(validatePatientFields({ last_name: null }, 'update').errors).toEqual([
      expect.objectContaining({ path: '/last_name', code: 'not_nullable' }),
    ]);
  });

  it('refuses a body that is not an object', () => {
    expect(validatePatientFields([1], 'create').errors[0]).toMatchObject({ path: '', code: 'invalid_type' });
  });
});

describe('createOrMatchPatient', () => {
  it('matches by MRN first, even when phone and email point elsewhere', () => {
    const r = createOrMatchPatient(sb, org(), { first_name: 'X', last_name: 'Y', mrn: 'A-1002', phone: '+15555550123' });
    expect(r).toMatchObject({ matchedBy: 'mrn', created: false });
    expect(r.patient.first_name).toBe('Grace');
  });

  it('matches by phone, then by email (case-insensitive), leaving the record unchanged', () => {
    const before = { ...byName('Grace') };
    const byPhone = createOrMatchPatient(sb, org(), { first_name: 'G', last_name: 'H', phone: '+15555550124' });
    expect(byPhone).toMatchObject({ matchedBy: 'phone', created: false });
    expect(byName('Grace')).toEqual(before);
    const byEmail = createOrMatchPatient(sb, org(), { first_name: 'E', last_name: 'E', email: 'EMMA@example.com' });
    expect(byEmail.matchedBy).toBe('email');
    expect(byEmail.patient.first_name).toBe('Emma');
  });

  it('creates a new patient when phone matches but both MRNs differ (a family member)', () => {
    const r = createOrMatchPatient(sb, org(), { first_name: 'Sam', last_name: 'Lovelace', phone: '+15555550123', mrn: 'A-9999' });
    expect(r).toMatchObject({ matchedBy: null, created: true });
    expect(patientsByPhone(sb, org(), '+15555550123')).toHaveLength(2);
  });

  it('prefers the same name among several phone matches', () => {
    const r = createOrMatchPatient(sb, org(), { first_name: 'jamie', last_name: 'RIVERA', phone: '+15555550150' });
    expect(r.patient.first_name).toBe('Jamie');
  });

  it('never matches another organization or a deleted patient', () => {
    deletePatient(sb, byName('Grace'));
    const r = createOrMatchPatient(sb, org(), { first_name: 'G', last_name: 'H', phone: '+15555550124' });
    expect(r.created).toBe(true);
    const lou = sb.db.patients.find((p) => p.first_name === 'Lou')!;
    expect(findPatient(sb, org(), lou.id)).toBeUndefined();
  });
});

describe('updatePatient', () => {
  it('refuses to leave a patient with neither phone nor email, changing nothing', () => {
    const emma = byName('Emma');
    const errors = updatePatient(sb, emma, { email: null });
    expect(errors).toEqual([expect.objectContaining({ path: '/email', code: 'required' })]);
    expect(byName('Emma').email).toBe('emma@example.com');
  });

  it('drops opt-outs when the phone changes', () => {
    const olive = byName('Olive');
    expect(updatePatient(sb, olive, { phone: '+15555550161' })).toEqual([]);
    expect(findPatient(sb, org(), olive.id)).toMatchObject({ phone: '+15555550161', optedOutFrom: [] });
  });
});
