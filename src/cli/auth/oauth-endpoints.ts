/**
 * Where the OAuth server is ({auth_url} in api-spec §4.2). The spec gives it
 * no address of its own, so msgctl assumes it is the API's origin: the base
 * URL without its trailing `/v1` (true of the sandbox). MSGCTL_AUTH_URL, or
 * `auth_url` in the profile, overrides that for a service that puts it
 * elsewhere (docs/authentication.md).
 */
import type { Context } from '../context.js';
import { checkBaseUrl } from '../api/transport.js';

export interface OAuthEndpoints {
  authorize: URL;
  token: URL;
  revoke: URL;
}

export function authUrlFrom(baseUrl: string, override: string | undefined): URL {
  if (override) return checkBaseUrl(override, true);
  const url = checkBaseUrl(baseUrl, true);
  url.pathname = url.pathname.replace(/\/v1\/$/, '/');
  url.search = '';
  return url;
}

export async function oauthEndpoints(ctx: Context): Promise<OAuthEndpoints> {
  const profile = await ctx.profile();
  const root = authUrlFrom(await ctx.baseUrl(), ctx.env.MSGCTL_AUTH_URL || profile?.auth_url);
  return {
    authorize: new URL('oauth/authorize', root),
    token: new URL('oauth/token', root),
    revoke: new URL('oauth/revoke', root),
  };
}
