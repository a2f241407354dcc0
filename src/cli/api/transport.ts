/**
 * The HTTP connection pool: one keep-alive undici dispatcher per process,
 * routed through HTTP(S)_PROXY unless NO_PROXY says otherwise. Extra CA
 * certificates need nothing here: Node reads NODE_EXTRA_CA_CERTS at start-up
 * and undici's TLS connections use that store.
 */
import { Agent, Dispatcher, EnvHttpProxyAgent } from 'undici';
import { UsageError } from '../errors.js';

type Env = Record<string, string | undefined>;

const POOL = { keepAliveTimeout: 10_000, connections: 32 } as const;

export function createDispatcher(env: Env): Dispatcher {
  const pick = (name: string) => env[name] ?? env[name.toLowerCase()];
  const proxied = new EnvHttpProxyAgent({
    // Empty strings, not undefined: undici would otherwise fall back to process.env.
    httpProxy: pick('HTTP_PROXY') ?? '',
    httpsProxy: pick('HTTPS_PROXY') ?? pick('HTTP_PROXY') ?? '',
    noProxy: pick('NO_PROXY') ?? '',
    ...POOL,
  });
  return new LoopbackDirect(new Agent(POOL), proxied);
}

/**
 * Loopback never goes through a proxy. Plain http:// is allowed to loopback
 * (checkBaseUrl), so a proxy would see the credential in clear text. NO_PROXY
 * cannot say "all of 127.0.0.0/8", so the choice is made here, per request,
 * by the very function the plain-http rule uses.
 */
class LoopbackDirect extends Dispatcher {
  constructor(
    private readonly direct: Dispatcher,
    private readonly proxied: Dispatcher,
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = options.origin === undefined ? null : new URL(String(options.origin));
    const target = origin && isLoopbackHost(origin.hostname) ? this.direct : this.proxied;
    return target.dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const done = Promise.all([this.direct.close(), this.proxied.close()]).then(() => undefined);
    if (!callback) return done;
    void done.then(callback, callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(errOrCallback?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
    const err = typeof errOrCallback === 'function' ? null : (errOrCallback ?? null);
    const cb = typeof errOrCallback === 'function' ? errOrCallback : callback;
    const done = Promise.all([this.direct.destroy(err), this.proxied.destroy(err)]).then(() => undefined);
    if (!cb) return done;
    void done.then(cb, cb);
  }
}

/** Loopback as both the plain-http rule and the proxy bypass see it: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Parses and checks a base URL. A credential must never cross the network in
 * clear text, so plain http:// is refused unless the host is loopback.
 */
export function checkBaseUrl(raw: string, sendsCredential: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Invalid base URL "${raw}".`, ['Example: https://api.example.com/v1']);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`Base URL must use https:// (got ${url.protocol}).`);
  }
  if (url.protocol === 'http:' && sendsCredential && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `Refusing to send a credential over plain http:// to ${url.host}.`,
      ['Use an https:// base URL; plain http is only allowed to loopback (127.0.0.1, ::1, localhost).'],
    );
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}
