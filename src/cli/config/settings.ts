/**
 * The profile settings `msgctl config get|set|unset|list` manages: their
 * names (as stored in config.json), what they mean, their defaults, and the
 * check each value passes before it is written, so a typo fails now instead of
 * in tonight's cron job. Everything else in a profile (credential, client_id,
 * scope, organization) is written by the commands that own it.
 */
import type { ProfileConfig } from './config.js';
import { UsageError } from '../errors.js';

export const SETTING_KEYS = ['base_url', 'region', 'default_from', 'date_order', 'color', 'pager', 'time_zone'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export interface Setting {
  /** One line for `config list` and help. */
  description: string;
  /** What applies when the profile does not set it. */
  default: string;
  /** Fixed values, for completion and errors; absent when any value of the right shape goes. */
  values?: readonly string[];
  /** The value to store, or a UsageError saying what is wrong. */
  check(value: string, profile: ProfileConfig | undefined): Promise<string>;
}

/** A setting with fixed values: the list completion and errors show, and the check against it. */
const oneOf = (key: string, values: readonly string[]): Pick<Setting, 'values' | 'check'> => ({
  values,
  async check(value) {
    if (!values.includes(value)) throw new UsageError(`${key} must be one of ${values.join(', ')} (got "${value}").`);
    return value;
  },
});

export const SETTINGS: Record<SettingKey, Setting> = {
  base_url: {
    description: 'API root including /v1 (--base-url and MSGCTL_BASE_URL override it)',
    default: 'none',
    async check(value) {
      const { checkBaseUrl } = await import('../api/transport.js');
      // The same rule as sending: https, or plain http only to loopback (a credential goes there).
      checkBaseUrl(value, true);
      return value.replace(/\/+$/, '');
    },
  },
  region: {
    description: 'country for phone numbers written without one (ISO code, e.g. US, GB); --region overrides it',
    default: 'US',
    async check(value) {
      const { isSupportedRegion } = await import('../util/phone.js');
      const code = value.trim().toUpperCase();
      if (!isSupportedRegion(code)) throw new UsageError(`region "${value}" is not a region code msgctl knows.`, ['Use a two-letter country code such as US, CA or GB.']);
      return code;
    },
  },
  default_from: {
    description: 'clinic number `send` and `campaigns create` use when --from is not given (else the key\'s default)',
    default: "the credential's default number",
    async check(value, profile) {
      const { normalizePhone } = await import('../util/phone.js');
      const result = normalizePhone(value, profile?.region ?? 'US');
      if (!result.ok) throw new UsageError(`default_from "${value}": ${result.reason}.`);
      return result.e164;
    },
  },
  date_order: {
    description: 'how numeric dates such as 03/02/1969 are read: day-first or month-first (see `msgctl help dates`)',
    default: "the region's order if it has a settled one, else never guessed",
    ...oneOf('date_order', ['day-first', 'month-first']),
  },
  color: {
    description: 'colour on a terminal: auto, always or never (NO_COLOR and --no-color still turn it off)',
    default: 'auto',
    ...oneOf('color', ['auto', 'always', 'never']),
  },
  pager: {
    description: 'command long terminal output goes through; empty for none (MSGCTL_PAGER and PAGER override it)',
    default: 'less -FRX',
    async check(value) {
      return value.trim();
    },
  },
  time_zone: {
    description: 'zone times are shown in: local, organization, or an IANA name such as Europe/London',
    default: 'local',
    async check(value) {
      const zone = value.trim();
      if (zone === 'local' || zone === 'organization') return zone;
      const { isTimeZone } = await import('../output/time-view.js');
      if (!isTimeZone(zone)) throw new UsageError(`time_zone "${value}" is not local, organization or a time zone name.`, ['For example: America/New_York, Europe/London, UTC.']);
      return zone;
    },
  },
};

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

/** The key as given, or a usage error listing the keys. */
export function settingKey(key: string): SettingKey {
  if (isSettingKey(key)) return key;
  throw new UsageError(`unknown setting "${key}".`, [`Settings: ${SETTING_KEYS.join(', ')}.`]);
}

/** The value as stored in a profile, as text ('' when unset). */
export function storedValue(profile: ProfileConfig | undefined, key: SettingKey): string | undefined {
  const value = profile?.[key];
  return value === undefined ? undefined : String(value);
}
