/** `msgctl auth status`: the active profile, credential kind, where it is stored, and who it belongs to. */
import type { Command } from 'commander';
import type { Organization } from '../../../contract/api.js';
import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { examples, type Act } from '../kit.js';

export type AuthStatusOptions = Record<string, never>;

export async function run(ctx: Context, _opts: AuthStatusOptions = {}): Promise<void> {
  const profileName = await ctx.profileName();
  const profile = await ctx.profile();
  const resolved = await ctx.credential();
  const baseUrl = await ctx.configuredBaseUrl();
  const info: Record<string, unknown> = {
    profile: profileName,
    base_url: baseUrl,
    credential: resolved?.credential.kind ?? null,
    source: resolved?.source ?? null,
    // The stored key's label only describes the stored key, not one from the environment.
    key_name: resolved && (resolved.source === 'keychain' || resolved.source === 'file') ? (profile?.credential?.name ?? null) : null,
    organization: null,
  };
  if (!resolved) {
    if (ctx.out.mode === 'json') await ctx.out.json(info);
    else await ctx.out.resource(info, fieldsOf(info));
    throw new AuthError(`Not logged in: profile "${profileName}" has no credential.`, [
      'Run `msgctl auth set-key` or `msgctl login`, or set MSGCTL_API_KEY.',
    ]);
  }
  const client = await ctx.client();
  if (resolved.credential.kind === 'oauth') {
    const me = await client.get<{ user: unknown; organization: Organization; scopes: string[]; expires_at: string }>('/me');
    Object.assign(info, { organization: me.organization, user: me.user, scopes: me.scopes, expires_at: me.expires_at });
  } else {
    info.organization = await client.get<Organization>('/organization');
  }
  if (ctx.out.mode === 'json') await ctx.out.json(info);
  else await ctx.out.resource(info, fieldsOf(info));
}

function fieldsOf(info: Record<string, unknown>) {
  return Object.keys(info).map((k) => ({ header: k, value: (o: Record<string, unknown>) => o[k] }));
}

export function register(auth: Command, act: Act): void {
  const status = auth
    .command('status')
    .description('Show the active profile, credential kind, where it is stored, and who it belongs to')
    .action(act((ctx) => run(ctx)));
  examples(status, ['msgctl auth status', 'msgctl --profile prod auth status --json']);
}
