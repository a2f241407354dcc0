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
  const kind = resolved?.credential.kind ?? null;
  const info: Record<string, unknown> = {
    profile: profileName,
    base_url: baseUrl,
    credential: kind,
    source: resolved?.source ?? null,
    // A stored API key's label; an OAuth session is a person (`user`), and a key from the environment has no label.
    key_name: kind === 'api_key' && (resolved!.source === 'keychain' || resolved!.source === 'file') ? (profile?.credential?.name ?? null) : null,
    organization: null,
  };
  if (!resolved) {
    await print(ctx, info);
    throw new AuthError(`Not logged in: profile "${profileName}" has no credential.`, [
      'Run `msgctl auth set-key` or `msgctl login`, or set MSGCTL_API_KEY.',
    ]);
  }
  const client = await ctx.client();
  if (resolved.credential.kind === 'oauth') {
    const me = await client.get<{ user: User; organization: Organization; scopes: string[]; expires_at: string }>('/me');
    Object.assign(info, { organization: me.organization, user: me.user, scopes: me.scopes, expires_at: me.expires_at });
  } else {
    info.organization = await client.get<Organization>('/organization');
  }
  await print(ctx, info);
}

interface User {
  id?: string;
  name?: string;
  email?: string;
  role?: string;
}

/** JSON: the objects as the service gave them. For people: one readable line per field, no JSON blobs. */
async function print(ctx: Context, info: Record<string, unknown>): Promise<void> {
  if (ctx.out.mode === 'json') return ctx.out.json(info);
  const org = info.organization as Organization | null;
  const user = info.user as User | undefined;
  const source = info.source as string | null;
  const readable: Record<string, unknown> = {
    profile: info.profile,
    base_url: info.base_url,
    credential: info.credential === 'api_key' ? 'API key' : info.credential === 'oauth' ? 'OAuth session' : 'none',
    source: source === null ? null : source.startsWith('env:') ? `environment (${source.slice(4)})` : source === 'file' ? 'file (--insecure-storage)' : 'OS keychain',
  };
  if (info.credential === 'api_key') readable.key_name = source === 'env:MSGCTL_API_KEY' ? 'from MSGCTL_API_KEY' : (info.key_name ?? '(unnamed)');
  if (user) readable.user = [user.name, user.email && `<${user.email}>`, user.role && `(${user.role})`].filter(Boolean).join(' ');
  readable.organization = org ? `${org.name} (${org.id})` : null;
  if (Array.isArray(info.scopes)) readable.scopes = (info.scopes as string[]).join(' ');
  if (info.expires_at) readable.expires_at = info.expires_at;
  await ctx.out.resource(readable, fieldsOf(readable));
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
