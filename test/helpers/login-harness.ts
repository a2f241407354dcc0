/**
 * Shared by the login and /me tests: drive the sandbox's approve page with
 * plain HTTP (what a browser would post), obtain tokens for a test, and run
 * `msgctl login` as a child process while reading its stderr as it arrives.
 */
import { execa, type ResultPromise } from 'execa';
import { createHash, randomBytes } from 'node:crypto';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { binPath, isolatedEnv } from './cli.js';

export const CLIENT_ID = 'msgctl-sandbox-cli';
export const ALL_SCOPES = 'messages.read messages.write patients.read patients.write offline_access';

/** The approve page's hidden request id, from GET /oauth/authorize's HTML. */
export function requestIdFrom(html: string): string {
  const m = html.match(/name="request_id" value="([^"]+)"/);
  if (!m) throw new Error(`no sign-in form in the page:\n${html.slice(0, 500)}`);
  return m[1]!;
}

export interface DecisionResult {
  status: number;
  location: string | null;
  html: string;
}

/** Opens an authorize URL, signs in and answers; returns the redirect (not followed). */
export async function decideViaHttp(
  authorizeUrl: string,
  answer: { email?: string; password?: string; decision: 'approve' | 'deny' },
): Promise<DecisionResult> {
  const pageResponse = await fetch(authorizeUrl, { redirect: 'manual' });
  const html = await pageResponse.text();
  if (pageResponse.status !== 200) throw new Error(`authorize answered ${pageResponse.status}: ${html.slice(0, 300)}`);
  const origin = new URL(authorizeUrl).origin;
  const response = await fetch(`${origin}/oauth/authorize/decision`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      request_id: requestIdFrom(html),
      email: answer.email ?? 'dana@riverside.example',
      password: answer.password ?? 'sandbox',
      decision: answer.decision,
    }),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(sandbox: RunningSandbox, params: Record<string, string>): string {
  const url = new URL('/oauth/authorize', sandbox.origin);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** A fresh authorization code for Dana (or `email`), with its verifier. */
export async function approvedCode(
  sandbox: RunningSandbox,
  options: { scope?: string; redirectUri?: string; email?: string } = {},
) {
  const { verifier, challenge } = pkce();
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:49152/callback';
  const state = randomBytes(8).toString('hex');
  const url = authorizeUrl(sandbox, {
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: redirectUri,
    scope: options.scope ?? ALL_SCOPES,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const result = await decideViaHttp(url, { decision: 'approve', email: options.email });
  if (result.status !== 302 || !result.location) throw new Error(`approve answered ${result.status}: ${result.html.slice(0, 300)}`);
  const back = new URL(result.location);
  if (back.searchParams.get('state') !== state) throw new Error('state was not echoed');
  return { code: back.searchParams.get('code')!, verifier, redirectUri };
}

export function basicAuth(sandbox: RunningSandbox, secret = sandbox.credentials.oauth_client_secret, id = CLIENT_ID): string {
  return 'Basic ' + Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');
}

/** POST to /oauth/token or /oauth/revoke with Basic client auth. */
export async function oauthPost(
  sandbox: RunningSandbox,
  path: '/oauth/token' | '/oauth/revoke',
  form: Record<string, string>,
  authorization: string | null = basicAuth(sandbox),
) {
  const response = await fetch(new URL(path, sandbox.origin), {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization ? { authorization } : {}),
    },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** Tokens for Dana through the whole flow, as a test's starting point. */
export async function issueTokens(sandbox: RunningSandbox, scope = ALL_SCOPES) {
  const { code, verifier, redirectUri } = await approvedCode(sandbox, { scope });
  const r = await oauthPost(sandbox, '/oauth/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
  if (r.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(r.body)}`);
  return r.body as { access_token: string; refresh_token?: string; expires_in: number; scope: string; token_type: string };
}

export interface RunningLogin {
  child: ResultPromise;
  /** Everything the CLI wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the authorize URL the CLI printed. */
  url: Promise<string>;
  /** Resolves once stderr contains `pattern`. */
  waitForStderr(pattern: RegExp): Promise<void>;
  result: Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

/** Starts `msgctl login --no-browser …` and watches its stderr. */
export function startLogin(args: string[], env: Record<string, string | undefined>): RunningLogin {
  const child = execa(process.execPath, [binPath(), 'login', '--no-browser', ...args], {
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
    stripFinalNewline: false,
  });
  let err = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    err += chunk;
    for (const w of [...waiters]) {
      if (w.pattern.test(err)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  const waitForStderr = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(err)) return resolve();
      waiters.push({ pattern, resolve });
      void child.then(() => {
        if (!pattern.test(err)) reject(new Error(`login ended before stderr matched ${pattern}:\n${err}`));
      });
    });
  const url = waitForStderr(/https?:\/\/\S+\/oauth\/authorize\?\S+/).then(
    () => err.match(/https?:\/\/\S+\/oauth\/authorize\?\S+/)![0],
  );
  const result = child.then((r) => ({ exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: err }));
  return { child, stderr: () => err, url, waitForStderr, result };
}

/** Env for `msgctl login` against `sandbox` with its OAuth app's client id and secret. */
export function loginEnv(sandbox: RunningSandbox, extra: Record<string, string | undefined> = {}) {
  return isolatedEnv({
    MSGCTL_BASE_URL: sandbox.baseUrl,
    MSGCTL_CLIENT_ID: CLIENT_ID,
    MSGCTL_CLIENT_SECRET: sandbox.credentials.oauth_client_secret,
    ...extra,
  });
}

/** Signs in at the authorize URL as the org admin, approves, and follows the redirect to the CLI's callback. */
export async function approveAt(url: string): Promise<void> {
  const decision = await decideViaHttp(url, { decision: 'approve' });
  await (await fetch(decision.location!)).text();
}

/** A browser double that signs in as the org admin and approves, recording what it was asked to open. */
export function approvingBrowser() {
  const opened: string[] = [];
  let done: Promise<unknown> = Promise.resolve();
  const openBrowser = async (url: string) => {
    opened.push(url);
    // The CLI waits for the callback after opening: answer in the background, as a real browser would.
    done = approveAt(url);
  };
  return { openBrowser, opened, finished: () => done };
}
