/**
 * The HTTP transport of the process: direct on node:http/https with keep-alive
 * (node-transport.ts), or through HTTP(S)_PROXY unless NO_PROXY says otherwise
 * (proxy-transport.ts, loaded only when a request is to be proxied). Extra CA
 * certificates need nothing here: Node reads NODE_EXTRA_CA_CERTS at start-up
 * and both paths use its TLS store.
 */
import { UsageError } from '../errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from './http.js';
import { isLoopbackHost } from './loopback.js';
import { NodeTransport } from './node-transport.js';
import type { ProxyTransport } from './proxy-transport.js';

type Env = Record<string, string | undefined>;

export function createTransport(env: Env): HttpTransport {
  return new RoutedTransport(env);
}

/**
 * Loopback never goes through a proxy. Plain http:// is allowed to loopback
 * (checkBaseUrl), so a proxy would see the credential in clear text. NO_PROXY
 * cannot say "all of 127.0.0.0/8", so the choice is made here, per request,
 * by the very function the plain-http rule uses.
 */
class RoutedTransport implements HttpTransport {
  private readonly direct = new NodeTransport();
  private proxied?: Promise<ProxyTransport>;
  /** The route per origin and scheme: the environment does not change while the process runs. */
  private readonly routes = new Map<string, string | null>();

  constructor(private readonly env: Env) {}

  request(url: URL, init: HttpRequest): Promise<HttpResponse> {
    const origin = `${url.protocol}//${url.host}`;
    let proxy = this.routes.get(origin);
    if (proxy === undefined) {
      proxy = proxyFor(url, this.env);
      if (this.routes.size < ROUTES) this.routes.set(origin, proxy);
    }
    if (proxy !== null) return this.viaProxy(url, init, proxy);
    try {
      return this.direct.request(url, init);
    } catch (err) {
      return Promise.reject(err); // callers see every failure as a rejection, as from an async function
    }
  }

  private async viaProxy(url: URL, init: HttpRequest, proxy: string): Promise<HttpResponse> {
    this.proxied ??= import('./proxy-transport.js').then((m) => new m.ProxyTransport());
    return (await this.proxied).request(url, init, proxy);
  }

  async close(): Promise<void> {
    await Promise.all([this.direct.close(), this.proxied?.then((p) => p.close())]);
  }
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };
const ROUTES = 64;

/**
 * The proxy URL a request to `url` goes through, or null for a direct
 * connection: loopback never; otherwise HTTPS_PROXY (https targets, falling
 * back to HTTP_PROXY) or HTTP_PROXY, unless NO_PROXY names the host. NO_PROXY
 * is read as curl and undici read it: entries split on commas or spaces,
 * `*` for every host, `host`, `.domain` or `*.domain` (the domain and its
 * subdomains), each optionally with `:port`.
 */
export function proxyFor(url: URL, env: Env): string | null {
  if (isLoopbackHost(url.hostname)) return null;
  const pick = (name: string) => env[name] ?? env[name.toLowerCase()];
  const proxy = url.protocol === 'https:' ? (pick('HTTPS_PROXY') ?? pick('HTTP_PROXY')) : pick('HTTP_PROXY');
  if (!proxy) return null;
  const noProxy = pick('NO_PROXY') ?? '';
  if (noProxy === '*') return null;
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number.parseInt(parsed[2]!, 10) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return null;
  }
  return proxy;
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
