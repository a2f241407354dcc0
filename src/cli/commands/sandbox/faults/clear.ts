/** `msgctl sandbox faults clear`: drop every queued fault of a running sandbox (DELETE /_sandbox/faults). */
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { examples, type Act } from '../../kit.js';

export type SandboxFaultsClearOptions = Record<string, never>;

export async function run(ctx: Context, _opts: SandboxFaultsClearOptions = {}): Promise<void> {
  const { clearFaults } = await import('../../../sandbox-control/faults.js');
  await clearFaults(ctx);
}

export function register(faults: Command, act: Act, runF: typeof run = run): void {
  const clear = faults
    .command('clear')
    .description('Drop every queued fault (faults already served stay listed)')
    .action(act((ctx) => runF(ctx)));
  examples(clear, ['msgctl sandbox faults clear']);
}
