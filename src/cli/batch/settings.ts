/**
 * The batch flags, checked and resolved before the CSV is opened: anything
 * wrong here is a usage error (exit 2) and nothing is sent.
 */
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import type { SendFlags } from '../send/flags.js';
import type { Channel } from '../../contract/api.js';
import { UsageError } from '../errors.js';
import { parseTemplate, type TemplatePart } from '../send/template.js';
import { isSupportedRegion, normalizePhone } from '../util/phone.js';
import { resolveDateOrder } from '../util/date-order.js';
import { docPath } from '../util/package-root.js';
import { givenText } from '../util/text.js';
import type { BatchParams } from './identity.js';
import type { RowDefaults } from './rows.js';

export interface BatchSettings {
  csv: string;
  template: string;
  parts: TemplatePart[];
  toColumn?: string;
  defaults: RowDefaults;
  /** What identifies the batch besides the file: the flags as typed. */
  identity: BatchParams;
  concurrency: number;
  journal?: string;
  strict: boolean;
  dryRun: boolean;
}

const ONE_OFF_FLAGS: Array<[keyof SendFlags, string]> = [
  ['bodyFile', '--body-file'], ['firstName', '--first-name'], ['lastName', '--last-name'], ['dob', '--dob'],
  ['email', '--email'], ['mrn', '--mrn'], ['idempotencyKey', '--idempotency-key'],
];

export async function resolveSettings(ctx: Context, flags: SendFlags): Promise<BatchSettings> {
  const csv = flags.csv!;
  for (const [flag, name] of ONE_OFF_FLAGS) {
    if (flags[flag] !== undefined) {
      throw new UsageError(`${name} is for a single send; a batch takes its values from the CSV and --template.`, [
        `Each row gets its own Idempotency-Key, derived from the file (see ${docPath('scripting.md')}).`,
      ]);
    }
  }
  const template = await readTemplate(flags);
  const parts = parseTemplate(template);
  if (template.trim() === '') throw new UsageError('--template is empty.');

  const profile = await ctx.profile();
  const region = await ctx.region(flags.region);
  if (!isSupportedRegion(region)) throw new UsageError(`--region "${region}" is not a known region code (e.g. US, CA, GB).`);
  const from = flags.from ?? profile?.default_from;
  if (from !== undefined) {
    const checked = normalizePhone(from, region);
    if (!checked.ok) throw new UsageError(`--from "${from}": ${checked.reason}.`);
  }
  const dates = resolveDateOrder(flags, profile, await ctx.profileName());
  return {
    csv,
    template,
    parts,
    toColumn: flags.toColumn,
    defaults: { channel: flags.channel as Channel | undefined, from, region, dateOrder: dates.order, dateOrderFrom: dates.from },
    identity: { template, channel: flags.channel, from: flags.from, region: flags.region, toColumn: flags.toColumn },
    concurrency: flags.concurrency ?? 4,
    journal: flags.journal === undefined ? undefined : resolve(flags.journal),
    strict: Boolean(flags.strict),
    dryRun: Boolean(flags.dryRun),
  };
}

async function readTemplate(flags: SendFlags): Promise<string> {
  if (flags.template !== undefined && flags.templateFile !== undefined) {
    throw new UsageError('Give the template with --template or --template-file, not both.');
  }
  if (flags.template !== undefined) return givenText(flags.template, '--template');
  if (flags.templateFile === undefined) {
    throw new UsageError('--csv needs a message template: --template TEXT or --template-file FILE.', [
      "Example: --template 'Hi {first_name}, see you at {time}'",
    ]);
  }
  // Read like a message body (BOM, UTF-16, CRLF, trailing newline): a template saved
  // again in Notepad is the same template, so the same batch.
  const [{ readFileBytes }, { decodeText }, { messageText, MESSAGE_TEXT_LIMIT }] = await Promise.all([
    import('../util/input-file.js'),
    import('../util/text-decode.js'),
    import('../util/text-input.js'),
  ]);
  const label = `--template-file ${flags.templateFile}`;
  return messageText(decodeText(await readFileBytes(flags.templateFile, label, MESSAGE_TEXT_LIMIT), label));
}
