/** The error for a profile name that is not in the config file (a typo, or a profile never created); the profiles there are, for hints. */
import { UsageError } from '../errors.js';
import type { ConfigStore } from './config.js';

export function describeUnknownProfile(name: string, config: ConfigStore, namedBy: '--profile' | 'MSGCTL_PROFILE' | 'default_profile' | 'argument'): UsageError {
  const names = config.profileNames();
  const from = namedBy === 'argument' ? '' : ` (from ${namedBy === 'default_profile' ? `the default profile in ${config.path}` : namedBy})`;
  return new UsageError(`no such profile "${name}"${from}.`, [
    names.length > 0
      ? `Profiles in ${config.path}: ${names.map((n) => `"${n}"`).join(', ')}.`
      : `There are no profiles yet (${config.path}).`,
    `To create "${name}": \`msgctl --profile ${name} --base-url https://…/v1 auth set-key\` or \`msgctl --profile ${name} login\`;` +
      ' for the local sandbox, `msgctl sandbox --write-profile` writes "sandbox".',
  ]);
}

/**
 * "No credential for profile default": the other profiles that have one (a
 * `sandbox` profile the user forgot to select), and how to pick one. Empty
 * when there is none.
 */
export function otherProfilesHint(current: string, config: ConfigStore): string[] {
  const others = config.profileNames().filter((name) => name !== current && config.profile(name)?.credential);
  if (others.length === 0) return [];
  const described = others.map((name) => {
    const profile = config.profile(name)!;
    const kind = profile.credential?.kind === 'oauth' ? 'OAuth session' : 'API key';
    return `"${name}" (${kind}${profile.base_url ? `, ${profile.base_url}` : ''})`;
  });
  const example = others.includes('sandbox') ? 'sandbox' : others[0]!;
  return [
    `Profiles with a credential in ${config.path}: ${described.join(', ')}.`,
    `Use one with --profile ${example}, MSGCTL_PROFILE=${example}, or for every command: \`msgctl profiles use ${example}\`.`,
  ];
}
