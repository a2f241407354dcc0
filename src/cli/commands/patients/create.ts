/** `msgctl patients create`: create a patient, or find the existing one (POST /patients). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { dayFirstOption, examples, monthFirstOption, type Act, formatOptions } from '../kit.js';
import { patientFields, patientInputFromFlags, type PatientFlags } from './common.js';
import { PATIENT } from '../../api/shapes.js';
import { cell } from '../../output/terminal-text.js';

export interface PatientsCreateOptions extends PatientFlags {
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: PatientsCreateOptions): Promise<void> {
  const input = await patientInputFromFlags(ctx, opts);
  if (!input.phone && !input.email) throw new UsageError('Give --phone, --email, or both.');
  const key = ctx.idempotencyKey(opts.idempotencyKey);
  const client = await ctx.client();
  const response = await client.request('POST', '/patients', { body: input, idempotencyKey: key, signal: ctx.signal, shape: PATIENT });
  const patient = response.data;
  if (patient.matched_by) {
    const given = `${input.first_name} ${input.last_name}`;
    const found = `${patient.first_name} ${patient.last_name}`;
    const by = patient.matched_by === 'mrn' ? 'MRN' : cell(patient.matched_by);
    // A family's shared phone, or a typo in an MRN, finds another person: say so louder than a note.
    // The same name written without its accents or with other spaces is the same person.
    const plain = (name: string) => name.trim().replace(/\s+/g, ' ');
    if (plain(given).localeCompare(plain(found), undefined, { sensitivity: 'base' }) !== 0) {
      ctx.out.warn(`no patient was created: the ${by} given belongs to ${cell(found)} (${cell(patient.id)}), not ${cell(given)}; that record was not changed.`);
    } else ctx.out.info(`Matched existing patient by ${by}; the record was not changed.`);
  }
  await ctx.out.resource(patient, patientFields);
}

export function register(patients: Command, act: Act, runF: typeof run = run): void {
  const create = patients
    .command('create')
    .description('Create a patient, or find the existing one by MRN, then phone, then email (POST /patients)')
    .requiredOption('--first-name <name>', 'given name')
    .requiredOption('--last-name <name>', 'family name')
    .option('--phone <phone>', 'mobile number in any common format (stored as E.164)')
    .option('--email <email>', 'email address')
    .option('--dob <date>', 'date of birth, YYYY-MM-DD (or 03/02/1969 with --day-first or --month-first)')
    .addOption(dayFirstOption())
    .addOption(monthFirstOption())
    .option('--mrn <mrn>', 'the patient\'s ID in your system (matched first)')
    .option('--region <code>', 'region for phone numbers without a country code')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried create safe')
    .action(act((ctx, flags: PatientsCreateOptions) => runF(ctx, flags)));
  formatOptions(create, FIELDS.patient);
  examples(create, [
    'msgctl patients create --first-name Ada --last-name Lovelace --phone "(555) 555-0142" --mrn A-1001',
    'msgctl patients create --first-name Bo --last-name Chen --email bo@example.com --dob 1984-02-29',
  ]);
}
