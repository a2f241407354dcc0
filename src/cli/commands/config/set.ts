/** `msgctl config set KEY VALUE`: check a setting's value and store it in the profile (creating the profile). */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { choices, examples, type Act } from '../kit.js';
import type { SettingLine } from './common.js';
import { CONFIG_KEYS, KEY_HELP } from './keys.js';

export interface ConfigSetOptions {
  key: string;
  value: string;
}

export async function run(ctx: Context, opts: ConfigSetOptions): Promise<void> {
  const { SETTINGS, settingKey } = await import('../../config/settings.js');
  const key = settingKey(opts.key);
  const name = await ctx.profileName();
  const config = await ctx.config();
  const existed = config.profile(name) !== undefined;
  const value = await SETTINGS[key].check(opts.value, config.profile(name));
  // Under the config lock, re-read first: a parallel msgctl's change to another key is kept (config.ts).
  await config.updateProfile(name, { [key]: value });
  if (!existed) ctx.out.info(`Created profile "${name}".`);
  const line: SettingLine = { profile: name, key, value, default: SETTINGS[key].default };
  if (ctx.out.mode === 'json') return ctx.out.json(line);
  ctx.out.info(`Set ${key} = ${value === '' ? '(empty)' : value} for profile "${name}".`);
}

export function register(config: Command, act: Act, runF: typeof run = run): void {
  const set = config
    .command('set')
    .description('Check a value and store it as a setting of the profile (creates the profile if need be)')
    .addArgument(new Argument('<key>', KEY_HELP).argParser(choices(CONFIG_KEYS)))
    .addArgument(new Argument('<value>', "the value; '' for an empty pager (none)"))
    .action(act((ctx, key: string, value: string) => runF(ctx, { key, value })));
  examples(set, [
    'msgctl config set date_order day-first',
    'msgctl --profile prod config set default_from "(555) 555-0110"',
    'msgctl config set time_zone Europe/London',
  ]);
}
