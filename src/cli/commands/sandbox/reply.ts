/** `msgctl sandbox reply`: a patient texts the clinic, in a running sandbox (POST /_sandbox/inbound). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { describeArguments, examples, type Act } from '../kit.js';

export interface SandboxReplyOptions {
  /** The patient's phone, any common format. */
  from: string;
  /** The clinic number texted; default the sandbox's first (Front Desk). */
  to?: string;
  body: string;
  region?: string;
}

export async function run(ctx: Context, opts: SandboxReplyOptions): Promise<void> {
  const { sendReply } = await import('../../sandbox-control/reply.js');
  await sendReply(ctx, opts);
}

export function register(sandbox: Command, act: Act, runF: typeof run = run): void {
  const reply = sandbox
    .command('reply <body>')
    .description('Make a patient text the clinic in a running sandbox: the reply lands in their sms conversation (STOP or START opts them out or in)')
    .requiredOption('--from <phone>', "the patient's phone number, any common format (a number no patient has creates one)")
    .option('--to <number>', "the clinic number the patient texts (default: the sandbox's first, Front Desk +15555550100)")
    .option('--region <code>', 'country for numbers without a country code (default: the profile\'s, else US)')
    .action(act((ctx, body: string, flags: Omit<SandboxReplyOptions, 'body'>) => runF(ctx, { ...flags, body })));
  describeArguments(reply, { body: 'what the patient writes (STOP and START opt their phone out of and back into texts)' });
  examples(reply, [
    'msgctl sandbox reply --from "(555) 555-0123" "Thanks, see you Tuesday!"',
    'msgctl sandbox reply --from +15555550124 --to +15555550110 STOP   # opts the phone out of Recalls',
    'msgctl --profile sandbox messages list --patient "$ID" --after 2026-01-01   # the reply, as staff see it',
  ]);
}
