import type { Command } from 'commander';
import type { Organization } from '../../contract/api.js';
import { AuthError } from '../errors.js';
import { examples, type Act } from './kit.js';

export function registerAuth(program: Command, act: Act): void {
  const auth = program.command('auth').description('Manage the stored credential: API keys, status, tokens');
  examples(auth, ['printf %s "$KEY" | msgctl auth set-key --name reminders', 'msgctl auth status']);

  const setKey = auth
    .command('set-key')
    .description('Store an organization API key for the profile (read from stdin or a hidden prompt, never argv)')
    .option('--name <name>', 'a label for the key, shown by `auth status`')
    .option('--insecure-storage', 'store in a file readable only by you (0600) instead of the OS keychain')
    .action(
      act(async (ctx, flags: { name?: string; insecureStorage?: boolean }) => {
        const [{ readSecret }, { checkBaseUrl }, creds] = await Promise.all([
          import('../auth/read-secret.js'),
          import('../api/transport.js'),
          import('../auth/credentials.js'),
        ]);
        // Refuse a missing or clear-text base URL before asking for the secret.
        const baseUrl = await ctx.baseUrl();
        checkBaseUrl(baseUrl, true);
        const apiKey = await readSecret(ctx, 'API key');
        // Check the key before storing it, so a typo is caught now rather than by tonight's cron job.
        const client = await ctx.clientFor(creds.staticBearer(apiKey));
        const organization = await client.get<Organization>('/organization', undefined, ctx.signal);
        const profileName = await ctx.profileName();
        const config = await ctx.config();
        const storage = flags.insecureStorage ? 'file' : 'keychain';
        const where = await creds.saveStoredCredential(ctx.env, config, profileName, { kind: 'api_key', api_key: apiKey }, storage, flags.name);
        await config.updateProfile(profileName, { base_url: baseUrl, organization });
        if (flags.insecureStorage) ctx.out.warn(`the key is stored unencrypted in ${where}; anyone with your user account can read it.`);
        ctx.out.info(`Stored API key${flags.name ? ` "${flags.name}"` : ''} for profile "${profileName}" in ${where}.`);
        if (ctx.out.mode === 'json') await ctx.out.json({ profile: profileName, storage, organization });
        else ctx.out.info(`Organization: ${organization.name} (${organization.id})`);
      }),
    );
  examples(setKey, [
    'msgctl auth set-key --name nightly-reminders            # paste at the hidden prompt',
    'printf %s "$KEY" | msgctl --profile prod --base-url https://api.example.com/v1 auth set-key',
    'printf %s "$KEY" | msgctl auth set-key --insecure-storage   # headless box without a keychain',
  ]);

  const status = auth
    .command('status')
    .description('Show the active profile, credential kind, where it is stored, and who it belongs to')
    .action(
      act(async (ctx) => {
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
      }),
    );
  examples(status, ['msgctl auth status', 'msgctl --profile prod auth status --json']);

  const token = auth
    .command('token')
    .description('Print the active token on stdout (for scripts: curl -H "Authorization: Bearer $(msgctl auth token)")')
    .action(
      act(async (ctx) => {
        // Through the credential provider, so an expiring OAuth token is refreshed first.
        const provider = await ctx.credentialProvider();
        const header = await provider.authorization();
        const token = header?.replace(/^Bearer\s+/i, '') ?? '';
        if (ctx.out.mode === 'json') await ctx.out.json({ token });
        else await ctx.out.write(token + '\n');
      }),
    );
  examples(token, ['curl -H "Authorization: Bearer $(msgctl auth token)" "$BASE/organization"']);

  const logout = program
    .command('logout')
    .description('Remove the profile\'s stored credential (and revoke OAuth tokens)')
    .action(
      act(async (ctx) => {
        const profileName = await ctx.profileName();
        const config = await ctx.config();
        const profile = config.profile(profileName);
        if (!profile?.credential) {
          ctx.out.info(`Profile "${profileName}" has no stored credential.`);
          return;
        }
        const { openSecretStore, SecretStoreUnavailableError } = await import('../auth/secret-store.js');
        const store = openSecretStore(profile.credential.storage, ctx.env);
        try {
          const secret = await store.get(profileName);
          if (secret) {
            const { revokeStoredCredential } = await import('../auth/revoke.js');
            await revokeStoredCredential(ctx, secret);
          }
          await store.delete(profileName);
        } catch (err) {
          if (!(err instanceof SecretStoreUnavailableError)) throw err;
          // The profile must not stay stuck on an unreachable keychain: forget it locally all the same.
          ctx.out.warn(`${err.message} The profile forgets the credential anyway; the keychain item may remain.`);
        }
        await config.updateProfile(profileName, { credential: undefined });
        ctx.out.info(`Removed the credential of profile "${profileName}" from ${store.describe()}.`);
      }),
    );
  examples(logout, ['msgctl logout', 'msgctl --profile prod logout']);
}

function fieldsOf(info: Record<string, unknown>) {
  return Object.keys(info).map((k) => ({ header: k, value: (o: Record<string, unknown>) => o[k] }));
}
