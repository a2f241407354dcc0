/** `msgctl doctor`: checks what scheduled jobs and newcomers trip on; the checks are in src/cli/doctor/. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';

export type DoctorOptions = Record<string, never>;

export async function run(ctx: Context, _opts: DoctorOptions = {}): Promise<number> {
  const { runDoctor } = await import('../../doctor/run.js');
  return runDoctor(ctx);
}

export function registerDoctor(program: Command, act: Act, runF: typeof run = run): void {
  const doctor = program
    .command('doctor')
    .description(
      'Check this machine for msgctl: Node, the PATH cron or launchd will see, the keychain, the credential and where it comes from, the network (TLS, proxy), the clock, folder ownership. Exit 1 when something is wrong',
    )
    .action(act((ctx) => runF(ctx)));
  examples(doctor, ['msgctl doctor', 'msgctl --profile clinic doctor     # the profile a cron job uses', 'msgctl doctor --json | jq -r \'select(.status != "ok") | .fix\'']);
}
