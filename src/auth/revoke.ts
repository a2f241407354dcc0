/**
 * On logout, an OAuth refresh/access token is revoked at the service before it
 * is deleted locally. API keys cannot be revoked from the CLI (they are
 * managed in the product settings), so they are only removed locally.
 * The OAuth work (issue 3) fills in the revocation call.
 */
import type { Context } from '../context.js';

export async function revokeStoredCredential(_ctx: Context, _secret: string): Promise<void> {
  // API keys: nothing to revoke from here.
}
