/** `msgctl profiles list`: the profiles in the config file, which one is in use, and what each holds. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Column } from '../../output/output.js';
import { examples, formatOptions, type Act } from '../kit.js';

export type ProfilesListOptions = Record<string, never>;

export interface ProfileLine {
  name: string;
  /** The profile this command line would use (--profile, MSGCTL_PROFILE, the default). */
  active: boolean;
  /** The config's default_profile. */
  default: boolean;
  base_url: string | null;
  /** api_key or oauth, and where it is stored; null without one. */
  credential: { kind: string; storage: string } | null;
}

const columns: Column<ProfileLine>[] = [
  { header: 'active', value: (p) => (p.active ? '*' : '') },
  { header: 'name', value: (p) => p.name, fixed: true },
  { header: 'base_url', value: (p) => p.base_url ?? '' },
  { header: 'credential', value: (p) => (p.credential ? `${p.credential.kind === 'oauth' ? 'OAuth session' : 'API key'} (${p.credential.storage})` : 'none') },
  { header: 'default', value: (p) => (p.default ? 'default' : ''), drop: 1 },
];

export async function run(ctx: Context, _opts: ProfilesListOptions = {}): Promise<void> {
  const config = await ctx.config();
  const active = await ctx.profileName();
  const lines: ProfileLine[] = config.profileNames().map((name) => {
    const profile = config.profile(name)!;
    return {
      name,
      active: name === active,
      default: name === config.defaultProfile,
      base_url: profile.base_url ?? null,
      credential: profile.credential ? { kind: profile.credential.kind, storage: profile.credential.storage } : null,
    };
  });
  const count = await ctx.out.list(lines, columns);
  if (count === 0) ctx.out.info(`No profiles yet in ${config.path}: \`msgctl auth set-key\`, \`msgctl login\` or \`msgctl sandbox --write-profile\` create one.`);
  else if (!lines.some((p) => p.active)) ctx.out.info(`This command line uses profile "${active}", which is not in ${config.path}.`);
}

export function register(profiles: Command, act: Act, runF: typeof run = run): void {
  const list = profiles
    .command('list')
    .description('List the profiles in the config file: which one is in use (*), its base URL and credential')
    .action(act((ctx) => runF(ctx)));
  // --json FIELDS, --jq and --template, as on every other list.
  formatOptions(list, ['name', 'active', 'default', 'base_url', 'credential'] satisfies (keyof ProfileLine)[]);
  examples(list, ['msgctl profiles list', 'msgctl profiles list --jq .name']);
}
