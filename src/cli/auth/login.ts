/**
 * `msgctl login`: OAuth 2.0 authorization code with PKCE for a native app
 * (RFC 6749 §4.1, RFC 7636, RFC 8252). Listen on 127.0.0.1, send the user's
 * browser to the authorize page, take the one callback, exchange the code
 * (HTTP Basic client auth), check the token on GET /me, then store it.
 * Nothing is stored unless all of that worked.
 */
import type { Context } from '../context.js';
import type { Profile } from '../../contract/api.js';
import { SCOPES } from '../../contract/api.js';
import { CliError, UsageError } from '../errors.js';
import { terminalSafe } from '../output/terminal-text.js';
import type { StoredOAuthTokens } from './credentials.js';
import type { StorageKind } from './secret-store.js';
import { createPkcePair, createState } from '../../contract/pkce.js';
import { oauthEndpoints } from './oauth-endpoints.js';
import { OAuthResponseError, requestTokens, type TokenSet } from './oauth-token-client.js';
import { openCallbackListener } from './login-listener.js';
import { resolveLoginClient, type LoginClient } from './login-client.js';
import type { SecretWrite } from './all-or-nothing.js';
import { PROFILE } from '../api/shapes.js';

export interface LoginFlags {
  clientId?: string;
  scopes?: string;
  port?: number;
  browser: boolean;
  insecureStorage?: boolean;
}

/** Every dotted scope of api-spec §5.3, and offline_access so the session can be refreshed. */
/** Everything an org admin's app can do, so every command works after a plain `msgctl login`. */
export const DEFAULT_SCOPES: string[] = [...SCOPES];
export const DEFAULT_LOGIN_TIMEOUT_SECONDS = 300;

export async function runLogin(ctx: Context, flags: LoginFlags): Promise<void> {
  const storage: StorageKind = flags.insecureStorage ? 'file' : 'keychain';
  const timeoutMs = loginTimeoutMs(ctx.env);
  const scopes = flags.scopes ? flags.scopes.split(/[\s,]+/).filter(Boolean) : DEFAULT_SCOPES;
  if (scopes.length === 0) throw new UsageError('--scopes is empty: give space-separated scopes, e.g. "messages.read offline_access".');
  const baseUrl = await ctx.baseUrl();
  const endpoints = await oauthEndpoints(ctx);
  const profileName = await ctx.profileName();
  // Before the browser opens: a keychain that cannot keep the session (none reachable, locked, too small)
  // fails now, saying so; then a missing client id. Nothing is stored by either.
  if (storage === 'keychain') await probeKeychain(ctx, profileName);
  const client = await resolveLoginClient(ctx, flags.clientId, storage, profileName);
  // Of what the login stores, only the client secret's size is known before sign-in: check it now.
  if (client.secretToStore) await checkStoreTakes(ctx, storage, [client.secretToStore]);
  await warnIfReplacingKey(ctx, profileName);

  const pkce = createPkcePair();
  const state = createState();
  const listener = await openCallbackListener(flags.port ?? 0, state);
  let code: string;
  try {
    const url = new URL(endpoints.authorize);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: listener.redirectUri,
      scope: scopes.join(' '),
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
    }).toString();
    // No "Opening your browser" where none can open (SSH, no display): say why and go on as with --no-browser.
    const noBrowser = flags.browser ? browserUnavailable(ctx.env, process.platform) : null;
    await showAuthorizeUrl(ctx, url.toString(), flags.browser && noBrowser === null, noBrowser, timeoutMs, listener.port);
    // Whichever comes first, browser or not: the browser reaching the listener (same machine, or `ssh -L`),
    // or the address it ended on, pasted here (the browser is elsewhere, or never opened).
    const settled = new AbortController();
    const signal = AbortSignal.any([ctx.signal, settled.signal]);
    const { waitForPastedRedirect } = await import('./login-paste.js');
    try {
      code = await Promise.race([listener.waitForCode({ timeoutMs, signal }), waitForPastedRedirect(ctx, state, signal)]);
    } finally {
      settled.abort();
    }
  } finally {
    await listener.close();
  }

  ctx.out.info('Signed in in the browser; finishing the login…');
  let tokens: TokenSet;
  try {
    tokens = await requestTokens(ctx, endpoints.token, client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: listener.redirectUri,
      code_verifier: pkce.verifier,
    });
  } catch (err) {
    if (err instanceof OAuthResponseError && err.error === 'invalid_client') await client.forgetStoredSecret();
    throw err;
  }
  const credential: StoredOAuthTokens = {
    kind: 'oauth',
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    expires_at: tokens.expires_in !== undefined ? new Date(Date.now() + tokens.expires_in * 1000).toISOString() : undefined,
    scope: tokens.scope ?? scopes.join(' '),
    client_id: client.clientId,
  };
  const profile = await fetchProfile(ctx, baseUrl, tokens.access_token);

  const config = await ctx.config();
  const { saveStoredCredential } = await import('./credentials.js');
  let where: string;
  try {
    // The tokens, the client secret and the profile: all of them, or none (all-or-nothing.ts).
    where = await saveStoredCredential(ctx.env, config, profileName, credential, storage, {
      name: profile?.user.name,
      secrets: client.secretToStore ? [client.secretToStore] : [],
      profile: { base_url: baseUrl, client_id: client.clientId, organization: profile ? profile.organization : undefined },
      tooLargeHints: TOO_LARGE_HINTS,
      notify: (message) => ctx.out.warn(message),
    });
  } catch (err) {
    // Tokens nobody keeps are better ended now than left valid for their lifetime.
    await revokeUnstored(ctx, endpoints.revoke, client, tokens);
    throw err;
  }
  if (flags.insecureStorage) ctx.out.warn(`the tokens are stored unencrypted in ${where}; anyone with your user account can read them.`);
  ctx.out.info(`Stored the session for profile "${profileName}" in ${where}.`);
  if (ctx.out.mode === 'json') {
    await ctx.out.json(profile ?? { scopes: credential.scope?.split(' ') ?? [] });
  } else if (profile) {
    const role = profile.user.role === 'admin' ? 'org admin' : profile.user.role;
    await ctx.out.write(terminalSafe(`Logged in as ${profile.user.name} (${role}) — ${profile.organization.name}`) + '\n');
  } else {
    await ctx.out.write(terminalSafe(`Logged in (scopes: ${credential.scope}); without messages.read, \`msgctl me\` cannot show who you are.`) + '\n');
  }
}

/** What to do when the keychain cannot keep a session's tokens (Windows Credential Manager's 2,560 bytes per entry). */
const TOO_LARGE_HINTS = [
  'Keep the session in a file only you can read instead: `msgctl login --insecure-storage`.',
  'Or, if the service can issue shorter tokens (fewer --scopes, or a shorter token lifetime), log in asking for those.',
];

/** Fails now, before the browser, when the store cannot keep one of `secrets` (all-or-nothing.ts). */
async function checkStoreTakes(ctx: Context, storage: StorageKind, secrets: SecretWrite[]): Promise<void> {
  const [{ openSecretStore }, { checkFits }] = await Promise.all([import('./secret-store.js'), import('./all-or-nothing.js')]);
  try {
    checkFits(openSecretStore(storage, ctx.env), secrets, { what: 'the login session', tooLargeHints: TOO_LARGE_HINTS.slice(0, 1) });
  } catch (err) {
    if (err instanceof CliError) throw new CliError(`${err.message} No browser was opened.`, err.exitCode, err.hints);
    throw err;
  }
}

/** Best effort: the new session's tokens, which could not be stored, revoked at the service (RFC 7009). */
async function revokeUnstored(ctx: Context, endpoint: URL, client: LoginClient, tokens: TokenSet): Promise<void> {
  const { postForm } = await import('./oauth-token-client.js');
  try {
    if (tokens.refresh_token) await postForm(ctx, endpoint, client, { token: tokens.refresh_token, token_type_hint: 'refresh_token' });
    await postForm(ctx, endpoint, client, { token: tokens.access_token, token_type_hint: 'access_token' });
  } catch {
    ctx.out.warn('could not revoke the tokens that were not stored; they stay valid at the service until they expire.');
  }
}

/** Stores and removes a token-sized entry; on failure, says that no keychain can be used here and how to go on. */
async function probeKeychain(ctx: Context, profileName: string): Promise<void> {
  const [{ openSecretStore }, { probeStore }, { SecretStoreUnavailableError }] = await Promise.all([
    import('./secret-store.js'),
    import('./token-entries.js'),
    import('./keychain-store.js'),
  ]);
  try {
    await probeStore(openSecretStore('keychain', ctx.env), profileName);
  } catch (err) {
    if (!(err instanceof SecretStoreUnavailableError)) throw err;
    throw new CliError(
      `No usable OS keychain here to keep the login session in: ${err.reason}. Nothing was stored and no browser was opened.`,
      err.exitCode,
      [
        'To log in anyway, keep the session in a file only you can read: `msgctl login --insecure-storage`.',
        'For cron and scripts, skip login: set MSGCTL_API_KEY (an API key) or MSGCTL_TOKEN (an OAuth access token).',
      ],
    );
  }
}

/** A profile holds one credential: say before sign-in that the session takes the stored API key's place. */
async function warnIfReplacingKey(ctx: Context, profileName: string): Promise<void> {
  const stored = (await ctx.profile())?.credential;
  if (stored?.kind !== 'api_key') return;
  const restore = profileName === 'sandbox' ? '`msgctl sandbox --write-profile`' : '`msgctl auth set-key`';
  ctx.out.warn(
    `profile "${profileName}" has an API key${stored.name ? ` ("${stored.name}")` : ''}; the login session replaces it ` +
      `(a profile holds one credential). To keep the key, press Ctrl-C and log in with --profile <another name>; ` +
      `to get the key back later, ${restore}.`,
  );
}

/**
 * Why no browser can be opened here, or null when one can: over SSH the
 * browser would open on the other machine's desktop, if any (an X-forwarded
 * DISPLAY excepted), and a Linux session without DISPLAY or WAYLAND_DISPLAY
 * has no desktop at all (WSL opens the Windows browser and has neither).
 */
export function browserUnavailable(env: Record<string, string | undefined>, platform: NodeJS.Platform): string | null {
  const graphical = Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  const wsl = Boolean(env.WSL_DISTRO_NAME || env.WSL_INTEROP);
  if ((env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY) && !(platform === 'linux' && graphical)) return 'this is an SSH session';
  if (platform !== 'win32' && platform !== 'darwin' && !graphical && !wsl) return 'there is no graphical display here (DISPLAY and WAYLAND_DISPLAY are unset)';
  return null;
}

async function showAuthorizeUrl(ctx: Context, url: string, openBrowser: boolean, noBrowser: string | null, timeoutMs: number, port: number): Promise<void> {
  const wait = `Waiting up to ${Math.round(timeoutMs / 1000)} s (Ctrl-C to cancel)…`;
  const paste =
    `After you approve, the browser goes to http://127.0.0.1:${port}/callback. On this machine (or with\n` +
    `\`ssh -L ${port}:127.0.0.1:${port}\` to it, see --port) that finishes the login by itself. If the browser\n` +
    `is elsewhere and shows "cannot connect", copy the address it ended on, paste it here and press Enter.`;
  // Written even with --quiet: without the URL the login cannot go on.
  if (!openBrowser) {
    const why = noBrowser ? `No browser can be opened: ${noBrowser}. ` : '';
    ctx.io.stderr.write(`${why}Open this URL in a browser and sign in as an org admin:\n\n  ${url}\n\n${paste}\n\n${wait}\n`);
    return;
  }
  ctx.io.stderr.write(
    `Opening your browser to sign in. If it does not open, visit this URL in a browser on any machine:\n\n  ${url}\n\n` +
      `and if that browser cannot reach this machine, paste the address it ends on here and press Enter.\n\n${wait}\n`,
  );
  const failed = () => ctx.out.warn('could not open a browser; open the URL above yourself, then paste the address the browser ends on here and press Enter.');
  try {
    await ctx.services.openBrowser(url, failed);
  } catch {
    failed();
  }
}

/** GET /me with the new token: proves it works and says who logged in. Null without messages.read. */
async function fetchProfile(ctx: Context, baseUrl: string, accessToken: string): Promise<Profile | null> {
  const [{ ApiClient }, { checkBaseUrl }, { staticBearer }, { ApiError }, { VERSION }] = await Promise.all([
    import('../api/client.js'),
    import('../api/transport.js'),
    import('./credentials.js'),
    import('../api/errors.js'),
    import('../version.js'),
  ]);
  const api = new ApiClient({
    baseUrl: checkBaseUrl(baseUrl, true),
    credential: staticBearer(accessToken),
    transport: await ctx.services.transport(),
    userAgent: `msgctl/${VERSION}`,
    timeoutMs: ctx.opts.timeout * 1000,
    retries: ctx.opts.retries,
    log: ctx.opts.verbose ? (l) => ctx.verbose(l) : undefined,
  });
  try {
    return await api.get('/me', undefined, ctx.signal, PROFILE);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'insufficient_scope') return null;
    throw err;
  }
}

export function loginTimeoutMs(env: Record<string, string | undefined>): number {
  const raw = env.MSGCTL_LOGIN_TIMEOUT_SECONDS?.trim();
  if (!raw) return DEFAULT_LOGIN_TIMEOUT_SECONDS * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`MSGCTL_LOGIN_TIMEOUT_SECONDS must be a number of seconds above 0, got '${raw}'.`);
  }
  return Math.round(seconds * 1000);
}
