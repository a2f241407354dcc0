/** `msgctl sandbox faults list`: the faults a running sandbox holds, and the last ones it served (GET /_sandbox/faults). */
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import type { FaultRow } from '../../../sandbox-control/faults.js';
import { examples, formatOptions, type Act } from '../../kit.js';

export type SandboxFaultsListOptions = Record<string, never>;

export async function run(ctx: Context, _opts: SandboxFaultsListOptions = {}): Promise<void> {
  const { listFaults } = await import('../../../sandbox-control/faults.js');
  await listFaults(ctx);
}

export function register(faults: Command, act: Act, runF: typeof run = run): void {
  const list = faults
    .command('list')
    .description('List the queued faults (in the order they apply) and the last 50 served, oldest first')
    .action(act((ctx) => runF(ctx)));
  // --wide, --jq and --template, as on every list; --json FIELDS names a row's fields (sandbox-control/faults.ts FaultRow).
  formatOptions(list, ['state', 'status', 'retryAfter', 'reset', 'holdMs', 'method', 'path', 'request'] satisfies (keyof FaultRow)[]);
  examples(list, ['msgctl sandbox faults list', 'msgctl sandbox faults list --json | jq -c \'select(.state == "served")\'']);
}
