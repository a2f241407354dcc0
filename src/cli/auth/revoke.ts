/**
 * On logout, an OAuth session is revoked at the service (RFC 7009) before it
 * is deleted locally: the refresh token first (which ends the whole grant),
 * then the access token. Failing to revoke is only a warning, since the
 * local copy is deleted either way and the user asked to be logged out.
 * API keys cannot be revoked from the CLI (they are managed in the product
 * settings), so they are only removed locally.
 */
import type { Context } from '../context.js';
import { parseStoredCredential } from './credentials.js';
import { availableClientSecret } from './oauth-client-secret.js';
import { cell } from '../output/terminal-text.js';

export async function revokeStoredCredential(ctx: Context, secret: string): Promise<void> {
  const credential = parseStoredCredential(secret);
  if (credential?.kind !== 'oauth') return;
  const profileName = await ctx.profileName();
  const profile = await ctx.profile();
  const clientId = credential.client_id || profile?.client_id || ctx.env.MSGCTL_CLIENT_ID;
  try {
    const clientSecret = clientId
      ? await availableClientSecret(ctx.env, profile?.credential?.storage ?? null, profileName, clientId)
      : null;
    if (!clientId || !clientSecret) {
      ctx.out.warn('could not revoke the session at the service (no OAuth client id or secret); its tokens stay valid until they expire.');
      return;
    }
    const [{ oauthEndpoints }, { postForm }] = await Promise.all([import('./oauth-endpoints.js'), import('./oauth-token-client.js')]);
    const { revoke } = await oauthEndpoints(ctx);
    const client = { clientId, clientSecret };
    if (credential.refresh_token) {
      await postForm(ctx, revoke, client, { token: credential.refresh_token, token_type_hint: 'refresh_token' });
    }
    await postForm(ctx, revoke, client, { token: credential.access_token, token_type_hint: 'access_token' });
    ctx.out.info('Revoked the session at the service.');
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.out.warn(`could not revoke the session at the service (${cell((err as Error).message)}); its tokens stay valid until they expire.`);
  }
}
