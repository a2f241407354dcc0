/**
 * `msgctl send`: --to is parsed here (commander), checked and normalised by
 * src/cli/send/build-request.ts, and sent by the API client (src/cli/api).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { cell } from '../../output/terminal-text.js';
import type { SendFlags } from '../../send/flags.js';
import { describeArguments, choices, dayFirstOption, examples, monthFirstOption, positiveInt, type Act } from '../kit.js';
import { SENT_MESSAGE } from '../../api/shapes.js';

/** The flags, plus BODY: the text, `-` for stdin, or undefined (stdin when piped). */
export interface SendOptions extends SendFlags {
  body?: string;
}

/** BODY argument, `-`, --body-file (or `-`), or piped stdin, in that order. */
async function readMessageBody(ctx: Context, bodyArg: string | undefined, bodyFile: string | undefined): Promise<string> {
  if (bodyArg !== undefined && bodyFile !== undefined) throw new UsageError('Give the body as an argument or --body-file, not both.');
  // The usual send: the body is the argument, and the file/stdin reader is never loaded (start-up).
  if (bodyFile === undefined && bodyArg !== undefined && bodyArg !== '-') return (await import('../../util/text.js')).givenText(bodyArg, 'The message body');
  const { readFileText, readStdinText } = await import('../../util/text-input.js');
  if (bodyFile !== undefined) return readFileText(ctx, bodyFile, '--body-file');
  if (bodyArg === undefined && ctx.io.stdin.isTTY) {
    throw new UsageError('No message body: pass it as an argument, with --body-file, or on stdin.');
  }
  return readStdinText(ctx);
}

/** One message to one patient (POST /patient-messages), or with --csv a batch (src/cli/batch). */
export async function run(ctx: Context, opts: SendOptions): Promise<number | void> {
  if (opts.csv !== undefined) {
    if (opts.body !== undefined || opts.to !== undefined) throw new UsageError('--csv sends from the file: drop --to and BODY.');
    const { runBatchSend } = await import('../../batch/run-batch-send.js');
    return runBatchSend(ctx, opts);
  }
  if (!opts.to) throw new UsageError('Missing --to <phone|patient-id> (or --csv FILE for a batch).');
  // The request builder loads while the body is read and the profile (config) loads: side by side,
  // not one module-loader round after another (start-up).
  const requestBuilder = import('../../send/build-request.js');
  const body = await readMessageBody(ctx, opts.body, opts.bodyFile);
  const [profile, { assertSendRequest }] = await Promise.all([ctx.profile(), requestBuilder]);
  const dates = opts.dob === undefined ? {} : (await import('../../util/date-order.js')).resolveDateOrder(opts, profile, await ctx.profileName());
  const request = assertSendRequest({
    to: opts.to,
    body,
    channel: opts.channel,
    from: opts.from ?? profile?.default_from,
    region: await ctx.region(opts.region),
    firstName: opts.firstName,
    lastName: opts.lastName,
    dob: opts.dob,
    dateOrder: dates.order,
    dateOrderFrom: dates.from,
    email: opts.email,
    mrn: opts.mrn,
  });
  const key = ctx.idempotencyKey(opts.idempotencyKey);
  if (opts.dryRun) {
    await ctx.out.json({ method: 'POST', path: '/patient-messages', headers: { 'Idempotency-Key': key }, body: request });
    ctx.out.info('Dry run: nothing was sent.');
    return;
  }
  const client = await ctx.client();
  const response = await client.request('POST', '/patient-messages', {
    body: request,
    idempotencyKey: key,
    signal: ctx.signal,
    shape: SENT_MESSAGE,
    mayHaveTakenEffect: 'It may have been sent all the same: look for it with `msgctl messages list` before sending it again.',
  });
  const m = response.data.message;
  const result = response.data;
  // The service answered with the first result for this key: an earlier command sent it. (With a key of our
  // own making, a replay can only be this command's own retry, which is an ordinary send.)
  const replayed = Boolean(opts.idempotencyKey) && response.headers['idempotent-replayed'] === 'true';
  if (ctx.out.mode === 'json') return ctx.out.json(result);
  if (ctx.out.mode === 'plain') {
    // Every field through cell(): a tab or newline in the answer would forge fields or lines for the script.
    await ctx.out.write([m.id, m.patient?.id ?? '', m.channel, m.delivery?.status ?? ''].map(cell).join('\t') + '\n');
    if (replayed) ctx.out.info(`Already sent (replayed): message ${cell(m.id)}; nothing sent again.`);
    return;
  }
  if (replayed) {
    await ctx.out.write(
      `Already sent (replayed), nothing sent again: ${cell(m.channel)} message ${cell(m.id)} to ${cell(m.patient?.name ?? 'patient')}` +
        ` (delivery ${cell(m.delivery?.status ?? 'pending')}), sent earlier with this --idempotency-key.\n`,
    );
    return;
  }
  const extras = [result.patient_created && 'new patient', result.conversation_created && 'new conversation'].filter(Boolean);
  await ctx.out.write(
    `Sent ${cell(m.channel)} message ${cell(m.id)} to ${cell(m.patient?.name ?? 'patient')}` +
      ` from ${cell(m.phone_number?.number ?? 'the default number')} (delivery ${cell(m.delivery?.status ?? 'pending')})` +
      (extras.length ? ` [${extras.join(', ')}]` : '') +
      '\n',
  );
}

export function registerSend(program: Command, act: Act, runF: typeof run = run): void {
  const send = program
    .command('send [body]')
    .description('Send a message to a patient by phone or patient id, or a batch from a CSV file (POST /patient-messages)')
    .option('--to <phone|patient-id>', 'recipient: a phone number in any common format, or a patient UUID')
    .option('--body-file <file>', 'read the message body from a file (- for stdin)')
    .option('--channel <channel>', 'secure (link by text or email, default) or sms (a regular text)', choices(['secure', 'sms']))
    .option('--from <phone>', 'clinic number to send from (default: the credential\'s default number)')
    .option('--region <code>', 'region for numbers without a country code (default US)')
    .option('--first-name <name>', 'given name, if the phone number creates a new patient')
    .option('--last-name <name>', 'family name, if the phone number creates a new patient')
    .option('--dob <date>', 'date of birth, if the phone number creates a new patient (YYYY-MM-DD, or numeric with --day-first/--month-first)')
    .addOption(dayFirstOption())
    .addOption(monthFirstOption())
    .option('--email <email>', 'email, if the phone number creates a new patient')
    .option('--mrn <mrn>', 'MRN, if the phone number creates a new patient (also resolves ambiguous numbers)')
    .option('--idempotency-key <uuid>', 'make a retried send safe: the service replays the first result for 24 h')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .option('--csv <file>', 'batch: send one message per CSV row (see docs/scripting.md)')
    .option('--template <text>', 'batch: message template with {column} placeholders')
    .option('--template-file <file>', 'batch: read the template from a file')
    .option('--to-column <name>', 'batch: column holding the recipient (default patient_id, else a phone column)')
    .option('--concurrency <n>', 'batch: messages in flight at once', positiveInt, 4)
    .option('--journal <file>', 'batch: journal of row outcomes, so a re-run sends only what is left')
    .option('--strict', 'batch: stop before sending anything if any row is invalid')
    .action(act((ctx, body: string | undefined, flags: SendFlags) => runF(ctx, { ...flags, body })));
  describeArguments(send, { body: 'the message; `-` or omitted: read from stdin (or --body-file)' });
  examples(send, [
    'msgctl send --to "(555) 555-0123" "Your results are ready"',
    'msgctl send --to 3f0c2a4e-8b1d-4c36-9a51-2d0c1e7f9a10 --channel sms --body-file note.txt',
    'echo "See you tomorrow" | msgctl send --to +15555550123 --idempotency-key "$(uuidgen)"',
    "msgctl send --csv tomorrow.csv --template 'Hi {first_name}, see you at {time}' --journal tomorrow.journal",
  ]);
}
