/** `msgctl me`: who the OAuth login is (GET /me). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act, formatOptions } from '../kit.js';
import { PROFILE } from '../../api/shapes.js';

export type MeShowOptions = Record<string, never>;

export async function run(ctx: Context, _opts: MeShowOptions = {}): Promise<void> {
  const profile = await (await ctx.client()).get('/me', undefined, ctx.signal, PROFILE);
  await ctx.out.resource(profile, [
    { header: 'user', value: (p) => p.user.name },
    { header: 'user_id', value: (p) => p.user.id },
    { header: 'role', value: (p) => p.user.role },
    { header: 'organization', value: (p) => p.organization.name },
    { header: 'organization_id', value: (p) => p.organization.id },
    { header: 'app', value: (p) => `${p.app.name} (${p.app.client_id})` },
    { header: 'scopes', value: (p) => p.scopes.join(' ') },
    { header: 'expires_at', value: (p) => p.expires_at, time: true },
  ]);
}

/** Returns the `me` command, which the other verbs hang under. */
export function register(program: Command, act: Act, runF: typeof run = run): Command {
  const me = program
    .command('me')
    .description('Who the OAuth login is (GET /me): admin, organization, app, scopes, expiry. OAuth only')
    .action(act((ctx) => runF(ctx)));
  formatOptions(me, FIELDS.profile);
  examples(me, ['msgctl login && msgctl me', 'msgctl me --json | jq -r .expires_at']);
  return me;
}
