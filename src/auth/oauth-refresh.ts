/**
 * Placeholder until OAuth login lands (issue 3): a stored OAuth token is sent
 * as is. The OAuth work replaces this with refresh-before-expiry and
 * refresh-once-after-401.
 */
import type { CredentialProvider } from '../api/client.js';
import type { Context } from '../context.js';
import type { ResolvedCredential } from './credentials.js';

export function oauthCredentialProvider(_ctx: Context, resolved: ResolvedCredential): CredentialProvider {
  const token = resolved.credential.kind === 'oauth' ? resolved.credential.access_token : null;
  return { authorization: async () => (token ? `Bearer ${token}` : null) };
}
