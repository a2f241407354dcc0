/** The error for a profile name that is not in the config file (a typo, or a profile never created). */
import { UsageError } from '../errors.js';
import type { ConfigStore } from './config.js';

export function describeUnknownProfile(name: string, config: ConfigStore, namedBy: '--profile' | 'MSGCTL_PROFILE' | 'default_profile'): UsageError {
  const names = config.profileNames();
  const from = namedBy === 'default_profile' ? `the default profile in ${config.path}` : namedBy;
  return new UsageError(`no such profile "${name}" (from ${from}).`, [
    names.length > 0
      ? `Profiles in ${config.path}: ${names.map((n) => `"${n}"`).join(', ')}.`
      : `There are no profiles yet (${config.path}).`,
    `To create "${name}": \`msgctl --profile ${name} --base-url https://…/v1 auth set-key\` or \`msgctl --profile ${name} login\`;` +
      ' for the local sandbox, `msgctl sandbox --write-profile` writes "sandbox".',
  ]);
}
