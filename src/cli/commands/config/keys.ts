/**
 * The setting names `msgctl config` takes, for the KEY argument's choices and
 * completion. The checks and descriptions are in src/cli/config/settings.ts
 * (loaded only when a config command runs); test/unit/config-settings.test.ts
 * holds the two lists equal.
 */
export const CONFIG_KEYS = ['base_url', 'region', 'default_from', 'date_order', 'color', 'pager', 'time_zone'] as const;

export const KEY_HELP = `setting: ${CONFIG_KEYS.join(', ')}`;
