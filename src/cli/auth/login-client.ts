/**
 * Which OAuth app `msgctl login` signs in with: the client id (--client-id,
 * MSGCTL_CLIENT_ID, or the profile's client_id) and its secret
 * (MSGCTL_CLIENT_SECRET, the store, or a hidden prompt / stdin, never argv).
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { StorageKind } from './secret-store.js';
import type { ClientCredentials } from './oauth-token-client.js';
import { clientSecretEntry, forgetClientSecret, readStoredClientSecret } from './oauth-client-secret.js';
import type { SecretWrite } from './all-or-nothing.js';

export interface LoginClient extends ClientCredentials {
  /** The secret to keep next to the tokens, for refresh and logout; null when the store has it already. */
  secretToStore: SecretWrite | null;
  /** The server refused the secret: do not offer a stored one again. */
  forgetStoredSecret(): Promise<void>;
}

export async function resolveLoginClient(
  ctx: Context,
  flagClientId: string | undefined,
  storage: StorageKind,
  profileName: string,
): Promise<LoginClient> {
  const clientId = flagClientId || ctx.env.MSGCTL_CLIENT_ID || (await ctx.profile())?.client_id;
  if (!clientId) {
    throw new UsageError('No OAuth client id to log in with.', [
      'Pass --client-id, set MSGCTL_CLIENT_ID, or store client_id in the profile.',
      'For the sandbox: `msgctl sandbox --write-profile` stores it in the "sandbox" profile.',
    ]);
  }
  // Also the early check that the chosen store works at all (a missing keychain fails here).
  const stored = await readStoredClientSecret(ctx.env, storage, profileName, clientId);
  let clientSecret = ctx.env.MSGCTL_CLIENT_SECRET || stored;
  if (!clientSecret) {
    const { readSecret } = await import('./read-secret.js');
    try {
      clientSecret = await readSecret(ctx, `client secret of ${clientId}`);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      throw new UsageError(`No client secret for the OAuth app "${clientId}".`, [
        'Set MSGCTL_CLIENT_SECRET, pipe it on stdin, or run on a terminal to be asked (never as an argument).',
      ]);
    }
  }
  const secret = clientSecret;
  return {
    clientId,
    clientSecret: secret,
    secretToStore: secret === stored ? null : { account: clientSecretEntry(profileName, clientId), secret },
    async forgetStoredSecret() {
      if (stored && secret === stored) await forgetClientSecret(ctx.env, storage, profileName, clientId);
    },
  };
}
