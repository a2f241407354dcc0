/** `msgctl patients update <id>`: change only the given fields (PATCH /patients/{id}). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ARGS, describeArguments, dayFirstOption, examples, monthFirstOption, type Act, formatOptions } from '../kit.js';
import { patientFields, patientInputFromFlags, patientPath, type PatientFlags } from './common.js';
import { PATIENT } from '../../api/shapes.js';

export interface PatientsUpdateOptions extends PatientFlags {
  id: string;
}

export async function run(ctx: Context, opts: PatientsUpdateOptions): Promise<void> {
  const path = await patientPath(opts.id);
  const input = await patientInputFromFlags(ctx, opts);
  if (Object.keys(input).length === 0) throw new UsageError('Nothing to update: give at least one field flag.');
  const patient = await (await ctx.client()).patch(path, input, ctx.signal, PATIENT);
  await ctx.out.resource(patient, patientFields);
}

export function register(patients: Command, act: Act, runF: typeof run = run): void {
  const update = patients
    .command('update <id>')
    .description('Change only the given fields of a patient (PATCH /patients/{id})')
    .option('--first-name <name>', 'new given name')
    .option('--last-name <name>', 'new family name')
    .option('--phone <phone>', 'new mobile number')
    .option('--clear-phone', 'remove the phone number')
    .option('--email <email>', 'new email address')
    .option('--clear-email', 'remove the email address')
    .option('--dob <date>', 'new date of birth, YYYY-MM-DD (or numeric with --day-first or --month-first)')
    .option('--clear-dob', 'remove the date of birth')
    .addOption(dayFirstOption())
    .addOption(monthFirstOption())
    .option('--mrn <mrn>', 'new MRN')
    .option('--clear-mrn', 'remove the MRN')
    .option('--region <code>', 'region for phone numbers without a country code')
    .action(act((ctx, id: string, flags: PatientFlags) => runF(ctx, { ...flags, id })));
  formatOptions(update, FIELDS.patient);
  describeArguments(update, { id: ARGS.patientId });
  examples(update, ['msgctl patients update "$ID" --phone "+1 555 555 0199"', 'msgctl patients update "$ID" --clear-email']);
}
