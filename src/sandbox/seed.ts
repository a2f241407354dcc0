/**
 * The sandbox's starting world (docs/sandbox.md lists it): two organizations
 * (the second proves isolation), clinic numbers, API keys, an org admin and
 * staff, OAuth apps, and patients covering the interesting cases (shared
 * phone, opted out, email only, failing delivery). Ids and keys derive from
 * --seed, so the same seed gives the same world every run.
 */
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { SandboxContext } from './context.js';
import { SCOPES } from '../contract/api.js';
import type { PatientRecord } from './domain/records.js';
import { oauthClients } from './domain/access-tokens.js';
import { seedTeamChats } from './domain/team-chats.js';

const NAMESPACE = '6f1d8c2e-3b5a-4e7f-9a0b-1c2d3e4f5a6b';

export interface SeededCredentials {
  organization_id: string;
  api_key: string;
  limited_api_key: string;
  other_org_api_key: string;
  oauth_client_id: string;
  oauth_client_secret: string;
  admin: { email: string; password: string };
  staff: { email: string; password: string };
  phone_numbers: string[];
}

export const SANDBOX_PASSWORD = 'sandbox';

export function seedWorld(sb: SandboxContext): SeededCredentials {
  const seed = sb.options.seed;
  const id = (name: string) => uuidv5(`${seed}:${name}`, NAMESPACE);
  const secret = (prefix: string, name: string) =>
    prefix + createHash('sha256').update(`${seed}:${name}`).digest('hex').slice(0, 32);
  const db = sb.db;

  const org = db.orgs.put({ id: id('org'), name: 'Riverside Family Clinic', timeZone: 'America/New_York', approvedClientIds: [] });
  const other = db.orgs.put({ id: id('org-2'), name: 'Lakeside Dental', timeZone: 'America/Chicago', approvedClientIds: [] });

  const frontDesk = db.phoneNumbers.put({ id: id('num-front'), orgId: org.id, number: '+15555550100', team: 'Front Desk' });
  const recalls = db.phoneNumbers.put({ id: id('num-recalls'), orgId: org.id, number: '+15555550110', team: 'Recalls' });
  const otherMain = db.phoneNumbers.put({ id: id('num-other'), orgId: other.id, number: '+15555550200', team: 'Main' });

  const fullKey = db.apiKeys.put({
    id: id('key-full'), orgId: org.id, name: 'Sandbox full access', token: secret('msk_test_', 'key-full'),
    scopes: [...SCOPES], defaultPhoneNumberId: frontDesk.id, deletedAt: null,
  });
  const limitedKey = db.apiKeys.put({
    id: id('key-limited'), orgId: org.id, name: 'Reminders only', token: secret('msk_test_', 'key-limited'),
    scopes: ['messages.write', 'patients.read'], defaultPhoneNumberId: frontDesk.id, deletedAt: null,
  });
  const otherKey = db.apiKeys.put({
    id: id('key-other'), orgId: other.id, name: 'Lakeside key', token: secret('msk_test_', 'key-other'),
    scopes: [...SCOPES], defaultPhoneNumberId: otherMain.id, deletedAt: null,
  });

  const admin = db.users.put({
    id: id('user-admin'), orgId: org.id, name: 'Dana Admin', email: 'dana@riverside.example', role: 'admin',
    password: SANDBOX_PASSWORD, defaultPhoneNumberId: frontDesk.id,
  });
  const staff = db.users.put({
    id: id('user-staff'), orgId: org.id, name: 'Sam Staff', email: 'sam@riverside.example', role: 'staff',
    password: SANDBOX_PASSWORD, defaultPhoneNumberId: frontDesk.id,
  });
  db.users.put({
    id: id('user-nurse'), orgId: org.id, name: 'Riley Nurse', email: 'riley@riverside.example', role: 'staff',
    password: SANDBOX_PASSWORD, defaultPhoneNumberId: recalls.id,
  });
  db.users.put({
    id: id('user-other-admin'), orgId: other.id, name: 'Lee Lakeside', email: 'lee@lakeside.example', role: 'admin',
    password: SANDBOX_PASSWORD, defaultPhoneNumberId: otherMain.id,
  });

  const cli = oauthClients(sb.store).put({
    id: 'msgctl-sandbox-cli', name: 'msgctl CLI', secret: secret('mcs_test_', 'client-cli'),
    redirectUris: ['http://127.0.0.1/callback', 'http://localhost/callback'],
  });
  oauthClients(sb.store).put({
    id: 'unapproved-app', name: 'Unapproved App', secret: secret('mcs_test_', 'client-unapproved'),
    redirectUris: ['http://127.0.0.1/callback'],
  });
  org.approvedClientIds.push(cli.id);

  // Seeded patients get distinct creation times (a second apart, in seed order) so lists are in a readable order.
  let patientSeq = 0;
  const patient = (name: string, p: Partial<PatientRecord> & Pick<PatientRecord, 'first_name' | 'last_name'>, orgId = org.id) =>
    db.patients.put({
      id: id(`patient-${name}`), orgId, date_of_birth: null, phone: null, email: null, mrn: null,
      optedOutFrom: [], created_at: sb.clock.iso(sb.clock.now() - 3_600_000 + 1000 * patientSeq++), deleted_at: null, ...p,
    });
  patient('ada', { first_name: 'Ada', last_name: 'Lovelace', phone: '+15555550123', email: 'ada@example.com', mrn: 'A-1001', date_of_birth: '1985-12-10' });
  patient('grace', { first_name: 'Grace', last_name: 'Hopper', phone: '+15555550124', mrn: 'A-1002', date_of_birth: '1976-12-09' });
  // A family sharing one phone: sending to that number is ambiguous.
  patient('alex', { first_name: 'Alex', last_name: 'Rivera', phone: '+15555550150', mrn: 'A-2001' });
  patient('jamie', { first_name: 'Jamie', last_name: 'Rivera', phone: '+15555550150', mrn: 'A-2002' });
  patient('olive', { first_name: 'Olive', last_name: 'Ortiz', phone: '+15555550160', mrn: 'A-3001', optedOutFrom: [frontDesk.number] });
  patient('emma', { first_name: 'Emma', last_name: 'Email', email: 'emma@example.com', mrn: 'A-4001' });
  patient('frank', { first_name: 'Frank', last_name: 'Failing', phone: '+15555550190', mrn: 'A-5001' });
  patient('lakeside', { first_name: 'Lou', last_name: 'Lakeside', phone: '+15555550123', mrn: 'L-1' }, other.id);
  seedTeamChats(sb, org.id, id);

  sb.store.changed();
  return {
    organization_id: org.id,
    api_key: fullKey.token,
    limited_api_key: limitedKey.token,
    other_org_api_key: otherKey.token,
    oauth_client_id: cli.id,
    oauth_client_secret: cli.secret,
    admin: { email: admin.email, password: SANDBOX_PASSWORD },
    staff: { email: staff.email, password: SANDBOX_PASSWORD },
    phone_numbers: [frontDesk.number, recalls.number],
  };
}
