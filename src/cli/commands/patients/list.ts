/** `msgctl patients list`: find patients by phone or MRN (GET /patients). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { allOption, wideOption, examples, limitOption, listLimit, type Act, type ListFlags, formatOptions } from '../kit.js';
import { patientColumns, requireText } from './common.js';
import { PATIENT } from '../../api/shapes.js';

export interface PatientsListOptions extends ListFlags {
  phone?: string;
  mrn?: string;
  region?: string;
}

export async function run(ctx: Context, opts: PatientsListOptions): Promise<void> {
  const query: Record<string, string | undefined> = {};
  if (opts.mrn !== undefined) query.mrn = requireText(opts.mrn, '--mrn');
  if (opts.phone !== undefined) {
    const { normalizePhone } = await import('../../util/phone.js');
    const r = normalizePhone(opts.phone, await ctx.region(opts.region));
    if (!r.ok) throw new UsageError(`--phone "${opts.phone}": ${r.reason}`);
    query.phone = r.e164;
  }
  const client = await ctx.client();
  const rows = client.paginate('/patients', query, { limit: listLimit(opts), signal: ctx.signal, shape: PATIENT });
  await ctx.out.list(rows, patientColumns, { empty: 'No patients found.', noun: 'patients' });
}

export function register(patients: Command, act: Act, runF: typeof run = run): void {
  const list = patients
    .command('list')
    .description('Find patients by phone or MRN (GET /patients)')
    .option('--phone <phone>', 'only patients with this phone number (any common format)')
    .option('--mrn <mrn>', 'only the patient with this MRN')
    .option('--region <code>', 'region for phone numbers without a country code', undefined)
    .addOption(limitOption('print at most this many patients'))
    .addOption(allOption('print every patient, following all pages'))
    .addOption(wideOption())
    .action(act((ctx, flags: PatientsListOptions) => runF(ctx, flags)));
  formatOptions(list, FIELDS.patient);
  examples(list, ['msgctl patients list --mrn A-1001', 'msgctl patients list --all --json > patients.jsonl']);
}
