/**
 * The typed API client: one place that knows the base URL, the credential,
 * idempotency keys, retries, rate-limit waits, timeouts and problem errors.
 * Commands call get/post/patch/delete/paginate and never touch HTTP.
 */
import { formatBytes, readBody, ResponseTooLargeError, type HttpResponse, type HttpTransport } from './http.js';
import { CliError } from '../errors.js';
import { ApiError, NetworkError } from './errors.js';
import {
  backoffDelayMs,
  DEFAULT_BACKOFF,
  MAX_RETRY_AFTER_MS,
  parseRetryAfterMs,
  RETRYABLE_NETWORK_CODES,
  RETRYABLE_STATUSES,
  type BackoffOptions,
} from './retry-policy.js';
import { paginate, type ListOptions } from './paginate.js';
import type { Paged } from './pages.js';
import type { Query } from './query.js';
import { sleep } from '../util/sleep.js';
import { resolveApiUrl } from './resolve-path.js';
import type { Shape } from './answer-shape.js';
import { answerError, MAY_HAVE_TAKEN_EFFECT } from './not-the-api.js';
import { parseBody } from './parse-body.js';

export type { Query, QueryValue } from './query.js';

export interface CredentialProvider {
  /** The Authorization header value, or null when there is no credential. */
  authorization(): Promise<string | null>;
  /** After a 401 invalid_token: try to obtain a fresh credential; true when the request should be retried. */
  refresh?(): Promise<boolean>;
}

export interface ClientOptions {
  baseUrl: URL;
  credential: CredentialProvider;
  /** How requests travel: node:http with keep-alive, or a proxy (transport.ts); tests may inject one. */
  transport: HttpTransport;
  userAgent: string;
  /** Per-attempt timeout. */
  timeoutMs: number;
  retries: number;
  backoff?: BackoffOptions;
  /** --verbose sink: one line per attempt. Never receives a secret or a body. */
  log?: (line: string) => void;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /**
   * The body already serialized as JSON (sent instead of `body`): a large body
   * built row by row into bytes, so it never exists as one string on the JS heap.
   */
  jsonBytes?: Buffer;
  /** Sent as Idempotency-Key on this request and every retry of it. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Hand a 2xx body back as a Buffer, unparsed (JSON Lines streaming copies records without parsing them). */
  rawBody?: boolean;
  /** Take a 2xx body that is not JSON as text (`msgctl api`, which prints any answer); else it is an error. */
  anyBody?: boolean;
  /** The most of the response body to read (MAX_RESPONSE_BYTES unless given: `msgctl api --max-body`). */
  maxBodyBytes?: number;
  /** What a 2xx answer must look like (shapes.ts); one that does not is an error naming the first wrong field. */
  shape?: Shape<unknown>;
  /** For a write whose 2xx answer is not the API's: what to check before running it again (else a general line). */
  mayHaveTakenEffect?: string;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string>;
  data: T;
  requestId: string | null;
}

export class ApiClient {
  /** While a 429 is being waited out, every request of this client waits too (no thundering herd). */
  private notBefore = 0;
  /**
   * Resolved URLs of query-less paths: a batch POSTs to one path thousands of
   * times, and resolving it (checks, then a URL parse) was ~3% of its CPU.
   * Bounded, for commands that visit one path per record.
   */
  private readonly resolved = new Map<string, URL>();

  constructor(private readonly opts: ClientOptions) {}

  get baseUrl(): URL {
    return this.opts.baseUrl;
  }

  async get<T>(path: string, query?: Query, signal?: AbortSignal, shape?: Shape<T>): Promise<T> {
    return (await this.request<T>('GET', path, { query, signal, shape })).data;
  }

  async post<T>(path: string, body: unknown, idempotencyKey?: string, signal?: AbortSignal, shape?: Shape<T>): Promise<T> {
    return (await this.request<T>('POST', path, { body, idempotencyKey, signal, shape })).data;
  }

  async patch<T>(path: string, body: unknown, signal?: AbortSignal, shape?: Shape<T>): Promise<T> {
    return (await this.request<T>('PATCH', path, { body, signal, shape })).data;
  }

  async delete<T = unknown>(path: string, signal?: AbortSignal): Promise<T> {
    return (await this.request<T>('DELETE', path, { signal })).data;
  }

  /** Records of every page; also readable a page at a time (see pages.ts). */
  paginate<T>(path: string, query: Query, options: ListOptions<T>): AsyncGenerator<T> & Paged<T> {
    return paginate<T>(this, path, query, options);
  }

  url(path: string, query?: Query): URL {
    // The credential goes with every request: the path can never leave the base URL (resolve-path.ts).
    const url = resolveApiUrl(this.opts.baseUrl, path);
    for (const [key, value] of Object.entries(query ?? {})) {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (v !== undefined && v !== null) url.searchParams.append(key, String(v));
      }
    }
    return url;
  }

  /** The URL of a request; never handed out, so a cached one is never changed. */
  private requestUrl(path: string, query: Query | undefined): URL {
    if (query !== undefined) return this.url(path, query);
    let url = this.resolved.get(path);
    if (url === undefined) {
      if (this.resolved.size >= RESOLVED_URLS) this.resolved.clear();
      url = this.url(path);
      this.resolved.set(path, url);
    }
    return url;
  }

  /** Sends one logical request, retrying per product.md §2; throws ApiError or NetworkError. */
  async request<T>(method: string, path: string, options: RequestOptions & { shape?: Shape<T> } = {}): Promise<ApiResponse<T>> {
    const sent = { any: false };
    try {
      return await this.attempts(method, path, options, sent);
    } catch (err) {
      // Ctrl-C or SIGTERM once a write with a key may have reached the service: it may have been
      // done all the same, and only that key lets a re-run finish it without doing it twice. A
      // copy of the abort carries the key (the reason itself is shared by every request of the
      // command, a batch's rows among them); render-error names it where it can be sent again.
      if (sent.any && options.idempotencyKey && options.signal?.aborted && err === options.signal.reason && err instanceof Error) {
        throw Object.assign(new Error(err.message, { cause: err }), err, { name: err.name, idempotencyKey: options.idempotencyKey, mayHaveArrived: true });
      }
      throw err;
    }
  }

  private async attempts<T>(method: string, path: string, options: RequestOptions & { shape?: Shape<T> }, sent: { any: boolean }): Promise<ApiResponse<T>> {
    const url = this.requestUrl(path, options.query);
    // Query values can be PHI (phone numbers, MRNs): --verbose shows parameter names only.
    // Only --verbose reads it: not built for every request of a batch.
    const display = this.opts.log ? `${method} ${url.pathname}${redactedQuery(url)}` : '';
    let refreshed = false;
    let lastNetworkError: NetworkError | null = null;

    for (let attempt = 0; ; attempt++) {
      // Ctrl-C between attempts (or before the first) ends the request: nothing more is sent.
      options.signal?.throwIfAborted();
      if (this.notBefore > Date.now()) await this.waitForRateLimit(options.signal);
      const headers = await this.buildHeaders(options);
      // Not performance.now(): the global's first read loads perf_hooks (~1–2 ms of every command's start).
      const started = Date.now();
      let response: HttpResponse;
      const attemptSignal = anySignal(options.signal, this.opts.timeoutMs);
      try {
        response = await this.opts.transport.request(url, {
          method,
          headers,
          body: options.jsonBytes ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
          signal: attemptSignal.signal,
        });
      } catch (err) {
        attemptSignal.dispose();
        // Stopped while the request was on its way: its bytes may have left.
        if (options.signal?.aborted) {
          sent.any = true;
          throw options.signal.reason ?? err;
        }
        const code = networkCode(err, attemptSignal.timedOut);
        const reason = attemptSignal.timedOut
          ? `timed out after ${this.opts.timeoutMs / 1000}s`
          : `${code}: ${(err as Error).message}`;
        lastNetworkError = new NetworkError(`Could not reach ${url.host}: ${reason}`, code, options.idempotencyKey ?? null);
        if (lastNetworkError.mayHaveArrived) sent.any = true;
        if (RETRYABLE_NETWORK_CODES.has(code) && attempt < this.opts.retries) {
          const delay = backoffDelayMs(attempt, this.opts.backoff ?? DEFAULT_BACKOFF);
          this.log(`${display} -> ${reason} (${ms(started)}); retry ${attempt + 1}/${this.opts.retries} in ${delay}ms`);
          await sleep(delay, options.signal);
          continue;
        }
        this.log(`${display} -> ${reason} (${ms(started)})`);
        throw lastNetworkError;
      }

      sent.any = true; // answered: the service has seen it
      let payload: unknown;
      try {
        const ok = response.status >= 200 && response.status < 300;
        const bytes = await readBody(response.body, options.maxBodyBytes, response.headers['content-length']);
        payload = options.rawBody && ok ? bytes : parseBody(bytes, response.headers['content-type']);
      } catch (err) {
        attemptSignal.dispose();
        // Bounded work for a hostile or broken server: never retried, never read further.
        if (err instanceof ResponseTooLargeError) {
          throw new CliError(`The answer to ${method} ${url.pathname} (HTTP ${response.status}) is over ${formatBytes(err.limit)}, more than msgctl reads; it stopped reading it.`, undefined, [
            'If this answer is meant to be that large, read it with `msgctl api` and a higher --max-body (e.g. --max-body 1GiB).',
          ]);
        }
        // The connection broke mid-body: same as a connection failure.
        const code = networkCode(err, attemptSignal.timedOut);
        if (attempt < this.opts.retries) {
          const delay = backoffDelayMs(attempt, this.opts.backoff ?? DEFAULT_BACKOFF);
          this.log(`${display} -> body ${code} (${ms(started)}); retry ${attempt + 1}/${this.opts.retries} in ${delay}ms`);
          await sleep(delay, options.signal);
          continue;
        }
        throw new NetworkError(`Connection to ${url.host} failed while reading the response: ${code}`, code, options.idempotencyKey ?? null);
      }
      attemptSignal.dispose();
      const status = response.status;
      const responseHeaders = flattenHeaders(response.headers);
      const requestId = responseHeaders['x-request-id'] ?? null;
      const base = `${display} -> ${status} (${ms(started)}) request_id=${requestId ?? '-'}`;

      if (status >= 200 && status < 300) {
        this.log(base);
        // `msgctl api` (anyBody) prints any answer as it came, and raw bodies are checked where they are parsed.
        const wrong = options.rawBody || options.anyBody ? null : answerError(`${method} ${path.split('?')[0]}`, status, responseHeaders['content-type'], requestId, this.opts.baseUrl, payload, options.shape);
        if (wrong) {
          if (method !== 'GET') wrong.hints.unshift(options.mayHaveTakenEffect ?? MAY_HAVE_TAKEN_EFFECT);
          throw wrong;
        }
        return { status, headers: responseHeaders, data: payload as T, requestId };
      }

      if (status === 429 && attempt < this.opts.retries) {
        const wait = parseRetryAfterMs(responseHeaders['retry-after']) ?? backoffDelayMs(attempt);
        if (wait <= MAX_RETRY_AFTER_MS) {
          this.log(`${base}; rate limited, retry ${attempt + 1}/${this.opts.retries} after ${wait}ms`);
          this.notBefore = Math.max(this.notBefore, Date.now() + wait);
          continue;
        }
      }
      const error = ApiError.fromResponse(status, payload, requestId);
      // A 409 for a key whose first attempt is still being worked on (it timed out here, not there)
      // is retried like a 5xx: asked again, the service answers with that attempt's result. Ending
      // on it said "conflict" (exit 5) about a write that went through.
      const retried = RETRYABLE_STATUSES.has(status) ? 'server error' : status === 409 && error.code === 'idempotency_request_in_progress' ? 'an earlier attempt with this key is still in progress' : null;
      if (retried && attempt < this.opts.retries) {
        const delay = backoffDelayMs(attempt, this.opts.backoff ?? DEFAULT_BACKOFF);
        this.log(`${base}; ${retried}, retry ${attempt + 1}/${this.opts.retries} in ${delay}ms`);
        await sleep(delay, options.signal);
        continue;
      }
      if (status === 401 && !refreshed && this.opts.credential.refresh) {
        refreshed = true;
        if (await this.opts.credential.refresh()) {
          this.log(`${base}; credential refreshed, retrying`);
          attempt--; // a refresh is not one of the --retries
          continue;
        }
      }
      this.log(`${base} code=${error.code}`);
      if (status === 429) error.retryAfterMs = parseRetryAfterMs(responseHeaders['retry-after']);
      error.attempts = attempt + 1;
      error.idempotencyKey = options.idempotencyKey ?? null;
      throw error;
    }
  }

  private async buildHeaders(options: RequestOptions): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      'user-agent': this.opts.userAgent,
      ...options.headers,
    };
    const authorization = await this.opts.credential.authorization();
    if (authorization) headers.authorization = authorization;
    if (options.body !== undefined || options.jsonBytes) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    return headers;
  }

  private async waitForRateLimit(signal?: AbortSignal): Promise<void> {
    const wait = this.notBefore - Date.now();
    if (wait > 0) await sleep(wait, signal);
  }

  private log(line: string): void {
    this.opts.log?.(line);
  }
}

const RESOLVED_URLS = 32;

/** Paging parameters carry no patient data and show how a list was walked; other values are hidden. */
const SHOWN_QUERY_PARAMETERS = new Set(['page[limit]', 'page[after]']);

function redactedQuery(url: URL): string {
  const parts = [...url.searchParams].map(([name, value]) =>
    `${encodeURIComponent(name)}=${SHOWN_QUERY_PARAMETERS.has(name) ? encodeURIComponent(value) : '…'}`,
  );
  return parts.length ? `?${parts.join('&')}` : '';
}

function flattenHeaders(headers: HttpResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

function networkCode(err: unknown, timedOut: boolean): string {
  if (timedOut) return 'MSGCTL_ATTEMPT_TIMEOUT';
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code ?? 'ECONNABORTED';
}

function ms(started: number): string {
  return `${Date.now() - started}ms`;
}

/** The caller's signal combined with a per-attempt timeout, remembering which one fired. */
function anySignal(outer: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController();
  const state = { timedOut: false };
  const timer = setTimeout(() => {
    state.timedOut = true;
    controller.abort(new Error('attempt timed out'));
  }, timeoutMs);
  timer.unref();
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return state.timedOut;
    },
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}
