/** What the `msgctl config` verbs share: which profile they act on, and printing a setting. */
import type { Context } from '../../context.js';
import type { ProfileConfig } from '../../config/config.js';

/**
 * The profile to read (--profile, MSGCTL_PROFILE, the default, else "default").
 * Reading one that was named but does not exist is a typo: exit 2 with the
 * profiles there are. `config set` creates it instead.
 */
export async function profileToRead(ctx: Context): Promise<{ name: string; profile: ProfileConfig | undefined }> {
  const name = await ctx.profileName();
  const config = await ctx.config();
  const profile = config.profile(name);
  if (!profile && name !== 'default') {
    const { describeUnknownProfile } = await import('../../config/unknown-profile.js');
    throw describeUnknownProfile(name, config, ctx.opts.profile ? '--profile' : ctx.env.MSGCTL_PROFILE ? 'MSGCTL_PROFILE' : 'default_profile');
  }
  return { name, profile };
}

/** One setting as printed by get, set and list: the same fields in every mode. */
export interface SettingLine {
  profile: string;
  key: string;
  /** As stored; null when the profile does not set it. */
  value: string | null;
  /** What applies when it is not set. */
  default: string;
}
