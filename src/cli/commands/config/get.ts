/** `msgctl config get KEY`: one setting of the profile, as stored (empty when unset). */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { choices, examples, type Act } from '../kit.js';
import { profileToRead, type SettingLine } from './common.js';
import { CONFIG_KEYS, KEY_HELP } from './keys.js';

export interface ConfigGetOptions {
  key: string;
}

export async function run(ctx: Context, opts: ConfigGetOptions): Promise<void> {
  const { SETTINGS, settingKey, storedValue } = await import('../../config/settings.js');
  const key = settingKey(opts.key);
  const { name, profile } = await profileToRead(ctx);
  const value = storedValue(profile, key) ?? null;
  const line: SettingLine = { profile: name, key, value, default: SETTINGS[key].default };
  if (ctx.out.mode === 'json') return ctx.out.json(line);
  // Scripts read the bare value: `$(msgctl config get region)` is empty when unset.
  if (value !== null) await ctx.out.write(`${value}\n`);
  else ctx.out.info(`${key} is not set for profile "${name}" (default: ${SETTINGS[key].default}).`);
}

export function register(config: Command, act: Act, runF: typeof run = run): void {
  const get = config
    .command('get')
    .description('Print one setting of the profile as stored (nothing when it is not set)')
    .addArgument(new Argument('<key>', KEY_HELP).argParser(choices(CONFIG_KEYS)))
    .action(act((ctx, key: string) => runF(ctx, { key })));
  examples(get, ['msgctl config get region', 'msgctl --profile prod config get base_url']);
}
