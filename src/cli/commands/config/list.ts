/** `msgctl config list`: every setting of the profile, set or not, with its default. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Column } from '../../output/output.js';
import { examples, formatOptions, type Act } from '../kit.js';
import { profileToRead, type SettingLine } from './common.js';

export type ConfigListOptions = Record<string, never>;

const columns: Column<SettingLine>[] = [
  { header: 'key', value: (s) => s.key, fixed: true },
  { header: 'value', value: (s) => s.value ?? '' },
  { header: 'default', value: (s) => s.default, drop: 1 },
];

export async function run(ctx: Context, _opts: ConfigListOptions = {}): Promise<void> {
  const { SETTINGS, SETTING_KEYS, storedValue } = await import('../../config/settings.js');
  const { name, profile } = await profileToRead(ctx);
  const lines: SettingLine[] = SETTING_KEYS.map((key) => ({ profile: name, key, value: storedValue(profile, key) ?? null, default: SETTINGS[key].default }));
  if (ctx.out.mode === 'table') ctx.out.info(`Profile "${name}":`);
  await ctx.out.list(lines, columns);
}

export function register(config: Command, act: Act, runF: typeof run = run): void {
  const list = config
    .command('list')
    .description('List every setting of the profile: its value (empty when not set) and its default')
    .action(act((ctx) => runF(ctx)));
  // --json FIELDS, --jq and --template, as on every other list.
  formatOptions(list, ['profile', 'key', 'value', 'default'] satisfies (keyof SettingLine)[]);
  examples(list, ['msgctl config list', 'msgctl --profile prod config list --json', "msgctl config list --jq 'select(.value != null) | .key'"]);
}
