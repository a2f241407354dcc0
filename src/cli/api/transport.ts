/**
 * The HTTP connection pool: one keep-alive undici dispatcher per process,
 * routed through HTTP(S)_PROXY unless NO_PROXY says otherwise. Extra CA
 * certificates need nothing here: Node reads NODE_EXTRA_CA_CERTS at start-up
 * and undici's TLS connections use that store.
 */
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { UsageError } from '../errors.js';

type Env = Record<string, string | undefined>;

/** Loopback never goes through a proxy: a plain-http sandbox request must not leave the machine. */
const LOOPBACK_NO_PROXY = 'localhost,127.0.0.1,::1';

export function createDispatcher(env: Env): Dispatcher {
  const pick = (name: string) => env[name] ?? env[name.toLowerCase()];
  const noProxy = pick('NO_PROXY');
  return new EnvHttpProxyAgent({
    // Empty strings, not undefined: undici would otherwise fall back to process.env.
    httpProxy: pick('HTTP_PROXY') ?? '',
    httpsProxy: pick('HTTPS_PROXY') ?? pick('HTTP_PROXY') ?? '',
    noProxy: noProxy ? `${noProxy},${LOOPBACK_NO_PROXY}` : LOOPBACK_NO_PROXY,
    keepAliveTimeout: 10_000,
    connections: 32,
  });
}

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
