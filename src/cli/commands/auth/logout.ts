/** `msgctl logout`: remove the profile's stored credential (revoking OAuth tokens first). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';

export type LogoutOptions = Record<string, never>;

export async function run(ctx: Context, _opts: LogoutOptions = {}): Promise<void> {
  const profileName = await ctx.profileName();
  const config = await ctx.config();
  const profile = config.profile(profileName);
  if (!profile?.credential) {
    ctx.out.info(`Profile "${profileName}" has no stored credential.`);
    return;
  }
  const { openSecretStore, SecretStoreUnavailableError } = await import('../../auth/secret-store.js');
  const store = openSecretStore(profile.credential.storage, ctx.env);
  try {
    const secret = await store.get(profileName);
    if (secret) {
      const { revokeStoredCredential } = await import('../../auth/revoke.js');
      await revokeStoredCredential(ctx, secret);
    }
    await store.delete(profileName);
  } catch (err) {
    if (!(err instanceof SecretStoreUnavailableError)) throw err;
    // The profile must not stay stuck on an unreachable keychain: forget it locally all the same.
    ctx.out.warn(`${err.message} The profile forgets the credential anyway; the keychain item may remain.`);
  }
  await config.updateProfile(profileName, { credential: undefined });
  ctx.out.info(`Removed the credential of profile "${profileName}" from ${store.describe()}; it has none now.`);
  if (profileName === 'sandbox') ctx.out.info('To use the sandbox again, restart it with `msgctl sandbox --write-profile`: it writes its new API key into this profile.');
}

export function register(program: Command, act: Act, runF: typeof run = run): void {
  const logout = program
    .command('logout')
    .description('Remove the profile\'s stored credential (and revoke OAuth tokens)')
    .action(act((ctx) => runF(ctx)));
  examples(logout, ['msgctl logout', 'msgctl --profile prod logout']);
}
