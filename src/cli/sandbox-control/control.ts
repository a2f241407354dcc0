/**
 * Talking to a running sandbox's control endpoints (`/_sandbox/*`, beside the
 * API on the sandbox's origin: docs/sandbox.md), for `msgctl sandbox reply`
 * and `msgctl sandbox faults`. The sandbox is found through --base-url or
 * MSGCTL_BASE_URL, else the profile chosen with --profile or MSGCTL_PROFILE,
 * else the "sandbox" profile `msgctl sandbox --write-profile` writes. Only a
 * sandbox on this machine: the control endpoints exist nowhere else, and a
 * patient's reply must never be posted to a real service by mistake. They
 * take no credential, so none is sent.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { ApiClient } from '../api/client.js';
import type { Shape } from '../api/answer-shape.js';

export const SANDBOX_PROFILE = 'sandbox';

export interface SandboxControl {
  /** http://127.0.0.1:PORT */
  origin: string;
  client: ApiClient;
}

/** Where the running sandbox is, and a client for its origin (no credential, no retries: it is local). */
export async function sandboxControl(ctx: Context): Promise<SandboxControl> {
  const base = await sandboxBaseUrl(ctx);
  let url: URL;
  try {
    url = new URL(base.url);
  } catch {
    throw new UsageError(`Invalid base URL "${base.url}" (from ${base.from}).`, ['A running sandbox prints its base URL, e.g. http://127.0.0.1:4010/v1.']);
  }
  const { isLoopbackHost } = await import('../api/loopback.js');
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${base.url} (from ${base.from}) is not a sandbox on this machine.`, [
      'These commands drive a local `msgctl sandbox` only (http://127.0.0.1, localhost or [::1]).',
      'Start one with `msgctl sandbox --write-profile`, or pass its --base-url.',
    ]);
  }
  const origin = url.origin;
  const [{ ApiClient }, transport, { USER_AGENT }] = await Promise.all([import('../api/client.js'), ctx.services.transport(), import('../version.js')]);
  const client = new ApiClient({
    baseUrl: new URL(`${origin}/`),
    credential: { authorization: async () => null },
    transport,
    userAgent: USER_AGENT,
    timeoutMs: ctx.opts.timeout * 1000,
    // A local sandbox that does not answer is not running: waiting and retrying would not help.
    retries: 0,
    log: ctx.opts.verbose ? (line) => ctx.verbose(line) : undefined,
  });
  return { origin, client };
}

async function sandboxBaseUrl(ctx: Context): Promise<{ url: string; from: string }> {
  if (ctx.opts.baseUrl) return { url: ctx.opts.baseUrl, from: '--base-url' };
  if (ctx.env.MSGCTL_BASE_URL) return { url: ctx.env.MSGCTL_BASE_URL, from: 'MSGCTL_BASE_URL' };
  const config = await ctx.config();
  const chosen = ctx.opts.profile ?? ctx.env.MSGCTL_PROFILE;
  const name = chosen || SANDBOX_PROFILE;
  const url = config.profile(name)?.base_url;
  if (url) return { url, from: `profile "${name}"` };
  throw new UsageError(chosen ? `Profile "${name}" has no base URL, so there is no sandbox to talk to.` : 'No running sandbox found: there is no "sandbox" profile.', [
    'Start one in another terminal with `msgctl sandbox --write-profile` (it writes the "sandbox" profile),',
    'or pass the base URL it printed: --base-url http://127.0.0.1:4010/v1.',
  ]);
}

/** Runs a control request; a sandbox that does not answer gets a hint instead of a bare network error. */
export async function controlRequest<T>(ctx: Context, control: SandboxControl, method: string, path: string, shape: Shape<T>, body?: unknown): Promise<T> {
  const { NetworkError } = await import('../api/errors.js');
  try {
    // The shape: a base URL at something other than a sandbox answers these paths with anything.
    const response = await control.client.request(method, path, { ...(body === undefined ? {} : { body }), signal: ctx.signal, shape });
    return response.data;
  } catch (err) {
    if (err instanceof NetworkError) {
      const { CliError } = await import('../errors.js');
      throw new CliError(`No sandbox answers at ${control.origin}: ${err.message}`, err.exitCode, [
        'Start it with `msgctl sandbox --write-profile` (a new port is written to the "sandbox" profile),',
        'or pass the base URL of the one that is running: --base-url http://127.0.0.1:PORT/v1.',
      ]);
    }
    throw err;
  }
}
