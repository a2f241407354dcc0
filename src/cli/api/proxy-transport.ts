/**
 * HTTP through a forward proxy (HTTP_PROXY / HTTPS_PROXY), on undici's
 * ProxyAgent: CONNECT tunnels for https and for http alike. undici is large,
 * so this module is imported only when a request's target is to be proxied
 * (transport.ts decides), never on the start-up path of an unproxied command.
 */
import { ProxyAgent, request, type Dispatcher } from 'undici';
import type { HttpRequest, HttpResponse, HttpTransport } from './http.js';

const POOL = { keepAliveTimeout: 10_000, connections: 32 } as const;

export class ProxyTransport implements HttpTransport {
  private readonly agents = new Map<string, ProxyAgent>();

  async request(url: URL, init: HttpRequest, proxyUrl?: string): Promise<HttpResponse> {
    if (!proxyUrl) throw new Error('ProxyTransport needs a proxy URL');
    let agent = this.agents.get(proxyUrl);
    if (!agent) this.agents.set(proxyUrl, (agent = new ProxyAgent({ uri: proxyUrl, ...POOL })));
    const response = await request(url, {
      method: init.method as Dispatcher.HttpMethod,
      headers: init.headers,
      body: init.body,
      dispatcher: agent,
      signal: init.signal,
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((agent) => agent.close()));
  }
}
