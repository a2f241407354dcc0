/** `msgctl sandbox faults add`: queue faults in a running sandbox (POST /_sandbox/faults). */
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import type { AddFlags } from '../../../sandbox-control/faults.js';
import { choices, examples, nonNegativeNumber, positiveInt, type Act } from '../../kit.js';

/** The flags, as `faultFromFlags` (sandbox-control/faults.ts) checks them; --hold in milliseconds. */
export type SandboxFaultsAddOptions = AddFlags;

export async function run(ctx: Context, opts: SandboxFaultsAddOptions): Promise<void> {
  const { addFaults } = await import('../../../sandbox-control/faults.js');
  await addFaults(ctx, opts);
}

export function register(faults: Command, act: Act, runF: typeof run = run): void {
  const add = faults
    .command('add')
    .description('Queue a fault: the next matching API request answers --status, or is handled and its connection reset, or is held in progress')
    .option('--status <code>', 'answer with this status instead of handling the request (429, 500 or 503)', choices(['429', '500', '503']))
    .option('--reset', 'handle the request, then drop the connection: the work is done but the answer is lost')
    .option('--hold <ms>', 'keep the request in progress this long (a duplicate meanwhile meets idempotency_request_in_progress)', nonNegativeNumber)
    .option('--retry-after <seconds>', 'with --status 429: the Retry-After to send (default 1)', nonNegativeNumber)
    .option('--method <method>', 'only requests with this method (default any)')
    .option('--path <prefix>', 'only requests whose path under /v1 starts with this, e.g. /patient-messages (default any)')
    .option('--count <n>', 'queue this many of the same fault (default 1)', positiveInt)
    .action(act((ctx, flags: SandboxFaultsAddOptions) => runF(ctx, flags)));
  examples(add, [
    'msgctl sandbox faults add --status 503 --method POST --path /patient-messages --count 2',
    'msgctl sandbox faults add --status 429 --retry-after 2',
    'msgctl sandbox faults add --reset --method POST   # the next POST is done, but its answer is lost',
  ]);
}
