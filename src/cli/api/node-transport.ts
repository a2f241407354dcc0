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

export class NodeTransport implements HttpTransport {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS });
  private httpsAgent?: Agent;

  request(url: URL, init: HttpRequest): Promise<HttpResponse> {
    const secure = url.protocol === 'https:';
    const send = secure ? https().request : httpRequest;
    const agent = secure ? (this.httpsAgent ??= new (https().Agent)({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS })) : this.http;
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
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
      const req = send(url, { method: init.method, headers, agent }, (res: IncomingMessage) => {
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
