/** `msgctl profiles use NAME`: make a profile the default for every command (config.json's default_profile). */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeWith, examples, type Act } from '../kit.js';

export interface ProfilesUseOptions {
  name: string;
}

export async function run(ctx: Context, opts: ProfilesUseOptions): Promise<void> {
  const config = await ctx.config();
  if (!config.profile(opts.name)) {
    const { describeUnknownProfile } = await import('../../config/unknown-profile.js');
    throw describeUnknownProfile(opts.name, config, 'argument');
  }
  await config.setDefaultProfile(opts.name);
  if (ctx.out.mode === 'json') await ctx.out.json({ default_profile: opts.name });
  else ctx.out.info(`Default profile is now "${opts.name}".`);
  // The environment wins over the default: say so rather than let the next command surprise.
  if (ctx.env.MSGCTL_PROFILE && ctx.env.MSGCTL_PROFILE !== opts.name) {
    ctx.out.warn(`MSGCTL_PROFILE=${ctx.env.MSGCTL_PROFILE} is set here and wins over the default: unset it to use "${opts.name}".`);
  }
}

export function register(profiles: Command, act: Act, runF: typeof run = run): void {
  const use = profiles
    .command('use')
    .description('Make a profile the default for every command (--profile and MSGCTL_PROFILE still win)')
    .addArgument(completeWith(new Argument('<name>', 'a profile in the config file (`msgctl profiles list`)'), 'profiles'))
    .action(act((ctx, name: string) => runF(ctx, { name })));
  examples(use, ['msgctl profiles use sandbox', 'msgctl profiles use prod']);
}
