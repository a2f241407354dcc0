/** `msgctl patients delete <id>`: asks first on a terminal, --yes otherwise (DELETE /patients/{id}). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act } from '../kit.js';
import { patientPath } from './common.js';
import { PATIENT } from '../../api/shapes.js';

export interface PatientsDeleteOptions {
  id: string;
  yes?: boolean;
}

export async function run(ctx: Context, opts: PatientsDeleteOptions): Promise<void> {
  const path = await patientPath(opts.id);
  const { confirmDestructive } = await import('../../util/confirm.js');
  await confirmDestructive(ctx, {
    yes: opts.yes,
    action: `Delete patient ${opts.id}`,
    question: async () => {
      // The person answering knows patients by name, not by UUID.
      const patient = await (await ctx.client()).get(path, undefined, ctx.signal, PATIENT);
      const known = [patient.mrn && `MRN ${patient.mrn}`, patient.date_of_birth && `born ${patient.date_of_birth}`, patient.phone].filter(Boolean);
      return `Delete patient ${patient.first_name} ${patient.last_name} (${[...known, opts.id].join(', ')})? This cannot be undone.`;
    },
  });
  await (await ctx.client()).delete(path, ctx.signal);
  if (ctx.out.mode === 'json') await ctx.out.json({ id: opts.id, deleted: true });
  else ctx.out.info(`Deleted patient ${opts.id}.`);
}

export function register(patients: Command, act: Act, runF: typeof run = run): void {
  const del = patients
    .command('delete <id>')
    .description('Delete a patient (asks first on a terminal, naming the patient; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(act((ctx, id: string, flags: { yes?: boolean }) => runF(ctx, { ...flags, id })));
  describeArguments(del, { id: ARGS.patientId });
  examples(del, ['msgctl patients delete "$ID" --yes']);
}
