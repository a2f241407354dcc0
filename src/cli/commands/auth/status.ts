/**
 * `msgctl auth status`: the active profile, credential kind, where it comes
 * from, and who it belongs to. The source is printed whatever happens next: a
 * key the service refuses, or a keychain that cannot be read, is exactly when
 * the user needs to know which credential was tried (a forgotten
 * MSGCTL_API_KEY overrides everything stored).
 */
import type { Command } from 'commander';
import type { Organization } from '../../../contract/api.js';
import type { Context } from '../../context.js';
import type { ResolvedCredential } from '../../auth/credentials.js';
import type { ProfileConfig } from '../../config/config.js';
import { AuthError, UsageError } from '../../errors.js';
import { examples, type Act } from '../kit.js';
import { ORGANIZATION, PROFILE } from '../../api/shapes.js';

export type AuthStatusOptions = Record<string, never>;

export async function run(ctx: Context, _opts: AuthStatusOptions = {}): Promise<void> {
  const profileName = await ctx.profileName();
  const profile = await ctx.profile();
  const baseUrl = await ctx.configuredBaseUrl();
  const info: Record<string, unknown> = { profile: profileName, base_url: baseUrl, credential: null, source: null, key_name: null, organization: null };
  let resolved: ResolvedCredential | null;
  try {
    resolved = await ctx.credential();
  } catch (err) {
    // A profile named on this command line that does not exist: nothing to show about it.
    if (err instanceof UsageError) throw err;
    // The keychain (or the file) could not be read: say which store was tried, then why.
    Object.assign(info, { credential: profile?.credential?.kind ?? null, source: profile?.credential?.storage ?? null });
    await print(ctx, info, profile);
    throw err;
  }
  const kind = resolved?.credential.kind ?? null;
  Object.assign(info, {
    credential: kind,
    source: resolved?.source ?? null,
    // A stored API key's label; an OAuth session is a person (`user`), and a key from the environment has no label.
    key_name: kind === 'api_key' && (resolved!.source === 'keychain' || resolved!.source === 'file') ? (profile?.credential?.name ?? null) : null,
  });
  if (!resolved) {
    await print(ctx, info, profile);
    const { otherProfilesHint } = await import('../../config/unknown-profile.js');
    throw new AuthError(`Not logged in: profile "${profileName}" has no credential.`, [
      ...otherProfilesHint(profileName, await ctx.config()),
      'Store an API key with `msgctl auth set-key`, log in with `msgctl login`, or set MSGCTL_API_KEY.',
    ]);
  }
  try {
    const client = await ctx.client();
    if (resolved.credential.kind === 'oauth') {
      const me = await client.get('/me', undefined, ctx.signal, PROFILE);
      Object.assign(info, { organization: me.organization, user: me.user, scopes: me.scopes, expires_at: me.expires_at });
    } else {
      info.organization = await client.get('/organization', undefined, ctx.signal, ORGANIZATION);
    }
  } catch (err) {
    await print(ctx, info, profile);
    const { ApiError } = await import('../../api/errors.js');
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      const { clearVariablePhrase } = await import('../../output/platform-words.js');
      throw refused(err, resolved, profileName, clearVariablePhrase);
    }
    throw err;
  }
  await print(ctx, info, profile);
}

/** The credential was refused: say which one, and the way out that can work for where it came from. */
function refused(err: { status: number; code: string }, resolved: ResolvedCredential, profileName: string, clearVariablePhrase: (name: string) => string): AuthError {
  const what = resolved.credential.kind === 'oauth' ? 'OAuth access token' : 'API key';
  const because = `(HTTP ${err.status} ${err.code})`;
  if (resolved.source === 'env:MSGCTL_API_KEY' || resolved.source === 'env:MSGCTL_TOKEN') {
    const variable = resolved.source.slice(4);
    return new AuthError(`The ${what} in ${variable} was refused ${because}.`, [
      `${variable} overrides the credential stored for profile "${profileName}", so \`msgctl auth set-key\` or \`msgctl login\` would not change what is sent.`,
      `Fix the value of ${variable}, or ${clearVariablePhrase(variable)} to use the stored credential.`,
    ]);
  }
  const where = resolved.source === 'file' ? 'in the credentials file (--insecure-storage)' : 'in the OS keychain';
  return new AuthError(`The ${what} stored for profile "${profileName}" ${where} was refused ${because}.`, [
    resolved.credential.kind === 'oauth'
      ? 'Log in again: `msgctl login`.'
      : 'Store a working key: `msgctl auth set-key` (the key may have been deleted or rotated), or log in: `msgctl login`.',
  ]);
}

interface User {
  id?: string;
  name?: string;
  email?: string;
  role?: string;
}

/** JSON: the objects as the service gave them. For people: one readable line per field, no JSON blobs. */
async function print(ctx: Context, info: Record<string, unknown>, profile: ProfileConfig | undefined): Promise<void> {
  if (ctx.out.mode === 'json') return ctx.out.json(info);
  const org = info.organization as Organization | null;
  const user = info.user as User | undefined;
  const source = info.source as string | null;
  const readable: Record<string, unknown> = {
    profile: info.profile,
    base_url: info.base_url,
    credential: info.credential === 'api_key' ? 'API key' : info.credential === 'oauth' ? 'OAuth session' : 'none',
    source: describeSource(source, profile),
  };
  if (info.credential === 'api_key') readable.key_name = source === 'env:MSGCTL_API_KEY' ? 'from MSGCTL_API_KEY' : (info.key_name ?? '(unnamed)');
  if (user) readable.user = [user.name, user.email && `<${user.email}>`, user.role && `(${user.role})`].filter(Boolean).join(' ');
  readable.organization = org ? `${org.name} (${org.id})` : null;
  if (Array.isArray(info.scopes)) readable.scopes = (info.scopes as string[]).join(' ');
  if (info.expires_at) readable.expires_at = info.expires_at;
  await ctx.out.resource(readable, fieldsOf(readable));
}

function describeSource(source: string | null, profile: ProfileConfig | undefined): string | null {
  if (source === null) return null;
  if (source.startsWith('env:')) {
    const stored = profile?.credential;
    const overrides = stored ? `; overrides the ${stored.kind === 'oauth' ? 'OAuth session' : 'API key'} stored for this profile` : '';
    return `environment (${source.slice(4)}${overrides})`;
  }
  return source === 'file' ? 'file (--insecure-storage)' : 'OS keychain';
}

function fieldsOf(info: Record<string, unknown>) {
  // A time in the one zone every view uses, labelled, with how far off it is (not the raw UTC text).
  return Object.keys(info).map((k) => ({ header: k, value: (o: Record<string, unknown>) => o[k], time: k === 'expires_at' }));
}

export function register(auth: Command, act: Act, runF: typeof run = run): void {
  const status = auth
    .command('status')
    .description('Show the active profile, credential kind, where it is stored, and who it belongs to')
    .action(act((ctx) => runF(ctx)));
  examples(status, ['msgctl auth status', 'msgctl --profile prod auth status --json']);
}
