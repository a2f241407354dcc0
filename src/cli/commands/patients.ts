import type { Command } from 'commander';
import type { Patient, PatientInput } from '../../contract/api.js';
import type { Column } from '../output/output.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { examples, positiveInt, type Act } from './kit.js';

export const patientColumns: Column<Patient>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'name', value: (p) => `${p.first_name} ${p.last_name}` },
  { header: 'dob', value: (p) => p.date_of_birth },
  { header: 'phone', value: (p) => p.phone },
  { header: 'email', value: (p) => p.email },
  { header: 'mrn', value: (p) => p.mrn },
  { header: 'sms_opted_out', value: (p) => p.sms_opted_out },
];

const patientFields: Column<Patient>[] = [
  ...patientColumns,
  { header: 'conversation_count', value: (p) => p.conversation_count },
  { header: 'created_at', value: (p) => p.created_at },
  { header: 'matched_by', value: (p) => p.matched_by },
];

interface PatientFlags {
  firstName?: string;
  lastName?: string;
  dob?: string;
  phone?: string;
  email?: string;
  mrn?: string;
  region?: string;
  clearDob?: boolean;
  clearPhone?: boolean;
  clearEmail?: boolean;
  clearMrn?: boolean;
}

/** Validates and normalises the flags that were given; absent flags stay absent (PATCH semantics). */
async function patientInputFromFlags(ctx: Context, flags: PatientFlags): Promise<PatientInput> {
  const input: PatientInput = {};
  if (flags.firstName !== undefined) input.first_name = requireText(flags.firstName, '--first-name');
  if (flags.lastName !== undefined) input.last_name = requireText(flags.lastName, '--last-name');
  if (flags.dob !== undefined) {
    const { normalizeDate } = await import('../util/dates.js');
    const r = normalizeDate(flags.dob, { notInFuture: true });
    if (!r.ok) throw new UsageError(`--dob "${flags.dob}": ${r.reason}`);
    input.date_of_birth = r.date;
  }
  if (flags.phone !== undefined) {
    const { normalizePhone } = await import('../util/phone.js');
    const region = await ctx.region(flags.region);
    const r = normalizePhone(flags.phone, region);
    if (!r.ok) throw new UsageError(`--phone "${flags.phone}": ${r.reason}`);
    input.phone = r.e164;
  }
  if (flags.email !== undefined) {
    const { looksLikeEmail } = await import('../util/email.js');
    if (!looksLikeEmail(flags.email)) throw new UsageError(`--email "${flags.email}" is not an email address.`);
    input.email = flags.email;
  }
  if (flags.mrn !== undefined) input.mrn = requireText(flags.mrn, '--mrn');
  for (const field of ['dob', 'phone', 'email', 'mrn'] as const) {
    const clearFlag = `clear${field[0]!.toUpperCase()}${field.slice(1)}` as keyof PatientFlags;
    if (flags[clearFlag]) {
      if (flags[field] !== undefined) throw new UsageError(`--${field} and --clear-${field} contradict each other.`);
      const key = field === 'dob' ? 'date_of_birth' : field;
      input[key] = null;
    }
  }
  return input;
}

/** The API path of a patient; a non-UUID id is refused locally (exit 2) instead of costing a 400. */
async function patientPath(id: string): Promise<string> {
  const { looksLikeUuid } = await import('../util/ids.js');
  if (!looksLikeUuid(id)) {
    throw new UsageError(`"${id}" is not a patient id (a UUID).`, ['Find one with `msgctl patients list --phone …` or `--mrn …`.']);
  }
  return `/patients/${id.toLowerCase()}`;
}

function requireText(value: string, flag: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new UsageError(`${flag} must not be empty.`);
  return trimmed;
}

export function registerPatients(program: Command, act: Act): void {
  const patients = program.command('patients').description('Find, create, update and delete patient records');
  examples(patients, ['msgctl patients list --phone "(555) 555-0123"', 'msgctl patients get 7d9f…']);

  const list = patients
    .command('list')
    .description('Find patients by phone or MRN (GET /patients)')
    .option('--phone <phone>', 'only patients with this phone number (any common format)')
    .option('--mrn <mrn>', 'only the patient with this MRN')
    .option('--region <code>', 'region for phone numbers without a country code', undefined)
    .option('--limit <n>', 'print at most this many patients', positiveInt, 50)
    .option('--all', 'print every patient, following all pages')
    .action(
      act(async (ctx, flags: { phone?: string; mrn?: string; region?: string; limit: number; all?: boolean }) => {
        const query: Record<string, string | undefined> = {};
        if (flags.mrn !== undefined) query.mrn = requireText(flags.mrn, '--mrn');
        if (flags.phone !== undefined) {
          const { normalizePhone } = await import('../util/phone.js');
          const r = normalizePhone(flags.phone, await ctx.region(flags.region));
          if (!r.ok) throw new UsageError(`--phone "${flags.phone}": ${r.reason}`);
          query.phone = r.e164;
        }
        const client = await ctx.client();
        const rows = client.paginate<Patient>('/patients', query, {
          limit: flags.all ? undefined : flags.limit,
          signal: ctx.signal,
        });
        await ctx.out.list(rows, patientColumns, { empty: 'No patients found.' });
      }),
    );
  examples(list, ['msgctl patients list --mrn A-1001', 'msgctl patients list --all --json > patients.jsonl']);

  const get = patients
    .command('get <id>')
    .description('Show one patient (GET /patients/{id})')
    .action(
      act(async (ctx, id: string) => {
        const patient = await (await ctx.client()).get<Patient>(await patientPath(id));
        await ctx.out.resource(patient, patientFields);
      }),
    );
  examples(get, ['msgctl patients get 3f0c2a4e-…', 'msgctl patients get "$ID" --json | jq .phone']);

  const create = patients
    .command('create')
    .description('Create a patient, or find the existing one by MRN, then phone, then email (POST /patients)')
    .requiredOption('--first-name <name>', 'given name')
    .requiredOption('--last-name <name>', 'family name')
    .option('--phone <phone>', 'mobile number in any common format (stored as E.164)')
    .option('--email <email>', 'email address')
    .option('--dob <date>', 'date of birth, YYYY-MM-DD (or MM/DD/YYYY)')
    .option('--mrn <mrn>', 'the patient\'s ID in your system (matched first)')
    .option('--region <code>', 'region for phone numbers without a country code')
    .option('--idempotency-key <uuid>', 'reuse this key to make a retried create safe')
    .action(
      act(async (ctx, flags: PatientFlags & { idempotencyKey?: string }) => {
        const input = await patientInputFromFlags(ctx, flags);
        if (!input.phone && !input.email) throw new UsageError('Give --phone, --email, or both.');
        const key = ctx.idempotencyKey(flags.idempotencyKey);
        const client = await ctx.client();
        const response = await client.request<Patient>('POST', '/patients', { body: input, idempotencyKey: key, signal: ctx.signal });
        const patient = response.data;
        if (patient.matched_by) ctx.out.info(`Matched existing patient by ${patient.matched_by}; the record was not changed.`);
        await ctx.out.resource(patient, patientFields);
      }),
    );
  examples(create, [
    'msgctl patients create --first-name Ada --last-name Lovelace --phone "(555) 555-0142" --mrn A-1001',
    'msgctl patients create --first-name Bo --last-name Chen --email bo@example.com --dob 1984-02-29',
  ]);

  const update = patients
    .command('update <id>')
    .description('Change only the given fields of a patient (PATCH /patients/{id})')
    .option('--first-name <name>', 'new given name')
    .option('--last-name <name>', 'new family name')
    .option('--phone <phone>', 'new mobile number')
    .option('--clear-phone', 'remove the phone number')
    .option('--email <email>', 'new email address')
    .option('--clear-email', 'remove the email address')
    .option('--dob <date>', 'new date of birth')
    .option('--clear-dob', 'remove the date of birth')
    .option('--mrn <mrn>', 'new MRN')
    .option('--clear-mrn', 'remove the MRN')
    .option('--region <code>', 'region for phone numbers without a country code')
    .action(
      act(async (ctx, id: string, flags: PatientFlags) => {
        const path = await patientPath(id);
        const input = await patientInputFromFlags(ctx, flags);
        if (Object.keys(input).length === 0) throw new UsageError('Nothing to update: give at least one field flag.');
        const patient = await (await ctx.client()).patch<Patient>(path, input, ctx.signal);
        await ctx.out.resource(patient, patientFields);
      }),
    );
  examples(update, ['msgctl patients update "$ID" --phone "+1 555 555 0199"', 'msgctl patients update "$ID" --clear-email']);

  const del = patients
    .command('delete <id>')
    .description('Delete a patient (asks first on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      act(async (ctx, id: string, flags: { yes?: boolean }) => {
        const path = await patientPath(id);
        const { confirmDestructive } = await import('../util/confirm.js');
        await confirmDestructive(ctx, `Delete patient ${id}?`, flags.yes);
        await (await ctx.client()).delete(path, ctx.signal);
        if (ctx.out.mode === 'json') await ctx.out.json({ id, deleted: true });
        else ctx.out.info(`Deleted patient ${id}.`);
      }),
    );
  examples(del, ['msgctl patients delete "$ID" --yes']);
}
