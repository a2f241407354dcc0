/** `msgctl patients get <id>` (GET /patients/{id}). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { patientFields, patientPath } from './common.js';
import { PATIENT } from '../../api/shapes.js';

export interface PatientsGetOptions {
  id: string;
}

export async function run(ctx: Context, opts: PatientsGetOptions): Promise<void> {
  const patient = await (await ctx.client()).get(await patientPath(opts.id), undefined, ctx.signal, PATIENT);
  await ctx.out.resource(patient, patientFields);
}

export function register(patients: Command, act: Act, runF: typeof run = run): void {
  const get = patients
    .command('get <id>')
    .description('Show one patient (GET /patients/{id})')
    .action(act((ctx, id: string) => runF(ctx, { id })));
  formatOptions(get, FIELDS.patient);
  describeArguments(get, { id: ARGS.patientId });
  examples(get, ['msgctl patients get 3f0c2a4e-…', 'msgctl patients get "$ID" --json | jq .phone']);
}
