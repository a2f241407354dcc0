/**
 * Direct HTTP on node:http/https: a keep-alive Agent per scheme, shared by
 * every request of the process. Costs next to nothing at start-up (Node has
 * these modules in its snapshot), and TLS uses Node's CA store, so
 * NODE_EXTRA_CA_CERTS applies with nothing done here.
 */
import type { Agent, IncomingMessage } from 'node:http';
import type { HttpRequest, HttpResponse, HttpTransport } from './http.js';

// Not `import … from 'node:http'`: the ESM facade of node:http reads every export,
// and its WebSocket getter loads Node's internal undici (~40 ms). The CommonJS
// object has the same functions without that.
// node:https (and with it TLS and crypto) is loaded with the first https:// request.
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
const https = () => process.getBuiltinModule('node:https');

/** Idle connections are dropped after this long (or a second before the server's Keep-Alive hint). */
const IDLE_MS = 10_000;
const MAX_SOCKETS = 32;
/** Node's methods without a default body (no Content-Length: 0 for them). */
const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

export class NodeTransport implements HttpTransport {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS });
  private httpsAgent?: Agent;

  request(url: URL, init: HttpRequest): Promise<HttpResponse> {
    const secure = url.protocol === 'https:';
    const send = secure ? https().request : httpRequest;
    const agent = secure ? (this.httpsAgent ??= new (https().Agent)({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS })) : this.http;
    // Headers as a flat [name, value, …] list, Host first, as Node would write them: Node then
    // writes them as they are, where an object costs a setHeader() (checks, a copy) per header,
    // and a URL is converted to options on every request (together ~10% of a batch's allocations).
    const headers = headerList(url, init);
    const options = { ...target(url), method: init.method, headers, agent };
    const signal = init.signal;
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      // The signal is watched here rather than passed as `signal`: Node's own handling
      // sets up a stream-finished watcher per request, ~6% of a `send --csv` run's CPU.
      let response: IncomingMessage | undefined;
      const onAbort = () => {
        const error = Object.assign(new Error('The operation was aborted', { cause: signal?.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
        response?.destroy(error); // a body being read fails, never ends short
        req.destroy(error);
      };
      const req = send(options, (res: IncomingMessage) => {
        response = res;
        // Errors after this point belong to the body's reader (readBody, a pipeline); this
        // listener only keeps one that happens before the reader attaches from being fatal.
        res.on('error', () => undefined);
        if (signal) res.once('close', () => signal.removeEventListener('abort', onAbort));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      req.once('error', (err) => {
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      });
      req.end(init.body);
    });
  }

  async close(): Promise<void> {
    this.http.destroy();
    this.httpsAgent?.destroy();
  }
}

/** Where a request goes, as node:http options: what it would take from the URL itself. */
function target(url: URL): { protocol: string; hostname: string; port: string; path: string } {
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname; // IPv6 without brackets
  return { protocol: url.protocol, hostname, port: url.port, path: `${url.pathname}${url.search}` };
}

/**
 * The request's headers as node:http would have sent them from an object: names
 * case-insensitive (the last one given wins), Host from the URL unless given, and
 * Content-Length of the body when there is one.
 */
function headerList(url: URL, init: HttpRequest): string[] {
  const list: string[] = [];
  const find = (name: string) => {
    for (let i = 0; i < list.length; i += 2) if (list[i] === name) return i;
    return -1;
  };
  const add = (name: string, value: string) => {
    const at = find(name);
    if (at === -1) list.push(name, value);
    else list[at + 1] = value;
  };
  for (const name of Object.keys(init.headers)) add(name.toLowerCase(), init.headers[name]!);
  if (find('host') === -1) list.unshift('host', url.host);
  if (init.body !== undefined) add('content-length', String(Buffer.byteLength(init.body)));
  // A list is written when the request is made, before end(): a POST without a body would go
  // chunked, where an object let end() say "Content-Length: 0" (methods that may carry a body).
  else if (!NO_BODY_METHODS.has(init.method.toUpperCase())) add('content-length', '0');
  return list;
}
