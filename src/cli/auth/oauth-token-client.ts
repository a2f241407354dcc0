/**
 * The CLI's side of the token and revocation endpoints (RFC 6749 §4.1.3, §6;
 * RFC 7009): form-encoded POSTs with HTTP Basic client authentication,
 * through the same proxy-aware connection pool as the API client. Never
 * logs a token, code, verifier or secret.
 */
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { NetworkError } from '../api/errors.js';
import { readText } from '../api/http.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TokenSet {
  access_token: string;
  token_type: string;
  expires_in?: number;
  scope?: string;
  refresh_token?: string;
}

/** An OAuth error answer (`{ error, error_description }`), e.g. invalid_grant. */
export class OAuthResponseError extends CliError {
  constructor(
    readonly error: string,
    readonly description: string | undefined,
    readonly status: number,
  ) {
    super(`The OAuth server refused the request: ${error}${description ? ` (${description})` : ''}.`, ExitCode.Auth);
    this.name = 'OAuthResponseError';
  }
}

/** RFC 6749 §2.3.1: id and secret are form-encoded, then joined and base64-encoded. */
export function basicAuthorization(client: ClientCredentials): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return 'Basic ' + Buffer.from(`${enc(client.clientId)}:${enc(client.clientSecret)}`).toString('base64');
}

export async function postForm(
  ctx: Context,
  url: URL,
  client: ClientCredentials,
  form: Record<string, string>,
): Promise<unknown> {
  ctx.verbose(`POST ${url.pathname} (${form.grant_type ?? 'revoke'})`);
  const transport = await ctx.services.transport();
  let response;
  let text: string;
  try {
    response = await transport.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: basicAuthorization(client),
      },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.opts.timeout * 1000)]),
    });
  } catch (err) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
    const code = (err as { code?: string }).code ?? (err as Error).name;
    throw new NetworkError(`Could not reach the OAuth server at ${url.host}: ${code}`, code);
  }
  try {
    text = await readText(response.body);
  } catch (err) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
    const code = (err as { code?: string }).code ?? (err as Error).name;
    throw new NetworkError(`Connection to the OAuth server at ${url.host} failed while reading the response: ${code}`, code);
  }
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  ctx.verbose(`POST ${url.pathname} -> ${response.status}`);
  if (response.status >= 200 && response.status < 300) return body;
  const error = body && typeof body === 'object' ? (body as { error?: unknown; error_description?: unknown }) : {};
  if (typeof error.error === 'string') {
    throw new OAuthResponseError(error.error, typeof error.error_description === 'string' ? error.error_description : undefined, response.status);
  }
  const exit = response.status >= 500 ? ExitCode.Unavailable : ExitCode.Failure;
  throw new CliError(`The OAuth server at ${url.host} answered HTTP ${response.status} without an OAuth error.`, exit);
}

export async function requestTokens(
  ctx: Context,
  tokenUrl: URL,
  client: ClientCredentials,
  form: Record<string, string>,
): Promise<TokenSet> {
  const body = (await postForm(ctx, tokenUrl, client, form)) as Partial<TokenSet> | null;
  if (!body || typeof body.access_token !== 'string' || !body.access_token) {
    throw new CliError(`The OAuth server at ${tokenUrl.host} answered without an access token.`);
  }
  if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer') {
    throw new CliError(`The OAuth server issued a "${body.token_type}" token; msgctl only uses Bearer tokens.`);
  }
  return body as TokenSet;
}
