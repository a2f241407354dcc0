/** `msgctl config unset KEY`: remove a setting from the profile, so its default applies. */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { choices, examples, type Act } from '../kit.js';
import { profileToRead, type SettingLine } from './common.js';
import { CONFIG_KEYS, KEY_HELP } from './keys.js';

export interface ConfigUnsetOptions {
  key: string;
}

export async function run(ctx: Context, opts: ConfigUnsetOptions): Promise<void> {
  const { SETTINGS, settingKey } = await import('../../config/settings.js');
  const key = settingKey(opts.key);
  const { name, profile } = await profileToRead(ctx);
  if (profile?.[key] !== undefined) await (await ctx.config()).updateProfile(name, { [key]: undefined });
  const line: SettingLine = { profile: name, key, value: null, default: SETTINGS[key].default };
  if (ctx.out.mode === 'json') return ctx.out.json(line);
  ctx.out.info(`Unset ${key} for profile "${name}" (now: ${SETTINGS[key].default}).`);
}

export function register(config: Command, act: Act, runF: typeof run = run): void {
  const unset = config
    .command('unset')
    .description('Remove a setting from the profile, so its default applies')
    .addArgument(new Argument('<key>', KEY_HELP).argParser(choices(CONFIG_KEYS)))
    .action(act((ctx, key: string) => runF(ctx, { key })));
  examples(unset, ['msgctl config unset pager']);
}
