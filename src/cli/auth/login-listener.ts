/**
 * The one-shot loopback listener `msgctl login` sends the browser back to
 * (RFC 8252 §7.3). It binds 127.0.0.1 only, never every interface, so no
 * other machine can reach it; the redirect URI names 127.0.0.1 literally
 * (not `localhost`, which may resolve to ::1 or be redefined).
 *
 * It waits for exactly one callback on /callback that belongs to this login.
 * Anything else (a favicon, a stray path) gets 404 and the wait goes on. A
 * callback without this login's `state` gets an error page and the wait goes
 * on too: any local user (or a page in any browser tab) can reach 127.0.0.1,
 * and must not be able to cancel someone's login with one request. The first
 * callback with the right state ends the wait whatever it carries: a code
 * succeeds; an `error` or no code fails. The listener closes right after
 * answering it, so the port is not left open while the CLI continues.
 */
import { createServer, type ServerResponse } from 'node:http';
import { AuthError, CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { DENIED_PAGE, FAILED_PAGE, NOT_FOUND_PAGE, SIGNED_IN_PAGE, STATE_MISMATCH_PAGE } from './login-pages.js';

export const CALLBACK_PATH = '/callback';

export interface CallbackListener {
  readonly port: number;
  readonly redirectUri: string;
  /** The authorization code; rejects on a bad callback, the timeout or Ctrl-C. */
  waitForCode(options: { timeoutMs: number; signal: AbortSignal }): Promise<string>;
  close(): Promise<void>;
}

type Outcome = { ok: true; code: string } | { ok: false; error: Error };

export async function openCallbackListener(port: number, expectedState: string): Promise<CallbackListener> {
  let settle: (outcome: Outcome) => void = () => undefined;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  let answered = false;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (answered || req.method !== 'GET' || url.pathname !== CALLBACK_PATH) return respond(res, 404, NOT_FOUND_PAGE);
    const result = judgeCallback(url, expectedState);
    // Not for this login (an old tab, another user's request): say so, keep waiting for ours.
    if (!result.ok && result.foreign) return respond(res, 400, result.page);
    answered = true;
    const page = result.ok ? SIGNED_IN_PAGE : result.page;
    respond(res, result.ok ? 200 : 400, page, () => {
      void close();
      settle(result.ok ? { ok: true, code: result.code } : { ok: false, error: result.error });
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, port)));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => resolve());
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;

  return {
    port: boundPort,
    redirectUri: `http://127.0.0.1:${boundPort}${CALLBACK_PATH}`,
    close,
    async waitForCode({ timeoutMs, signal }) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const stop = new Promise<Outcome>((resolve) => {
        timer = setTimeout(() => {
          resolve({ ok: false, error: new CliError(`Timed out after ${duration(timeoutMs)} waiting for the browser sign-in.`, ExitCode.Failure, ['Run `msgctl login` again when you are ready.']) });
        }, timeoutMs);
        onAbort = () => resolve({ ok: false, error: abortReason(signal) });
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const result = await Promise.race([outcome, stop]);
        if (!result.ok) throw result.error;
        return result.code;
      } finally {
        clearTimeout(timer);
        if (onAbort) signal.removeEventListener('abort', onAbort);
        await close();
      }
    },
  };
}

/** `foreign`: the callback does not carry this login's state, so it says nothing about this login. */
export type Judgement = { ok: true; code: string } | { ok: false; error: Error; page: string; foreign?: boolean };

export function judgeCallback(url: URL, expectedState: string): Judgement {
  const params = url.searchParams;
  // The state comes first: an answer that is not for this login says nothing, not even "denied".
  if (params.getAll('state').length !== 1 || params.get('state') !== expectedState) {
    return {
      ok: false,
      foreign: true,
      page: STATE_MISMATCH_PAGE,
      error: new AuthError('The browser came back with a response that does not belong to this login (state mismatch); nothing was signed in.', [
        'This happens with an old browser tab or a second login at the same time. Run `msgctl login` again.',
      ]),
    };
  }
  const error = params.get('error');
  if (error === 'access_denied') {
    return { ok: false, page: DENIED_PAGE, error: new AuthError('You denied access in the browser, so msgctl is not logged in.') };
  }
  if (error) {
    const description = params.get('error_description');
    return {
      ok: false,
      page: FAILED_PAGE,
      error: new AuthError(`The authorization server refused the login: ${error}${description ? ` (${description})` : ''}.`),
    };
  }
  const code = params.get('code');
  if (!code) {
    return { ok: false, page: FAILED_PAGE, error: new AuthError('The browser came back without an authorization code.') };
  }
  return { ok: true, code };
}

function respond(res: ServerResponse, status: number, body: string, done?: () => void): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(body, done);
}

function listenError(err: NodeJS.ErrnoException, port: number): Error {
  if (err.code === 'EADDRINUSE') {
    return new UsageError(`Port ${port} on 127.0.0.1 is already in use, so the login cannot listen for the browser there.`, [
      'Pick another with --port, or leave --port out to use any free port.',
    ]);
  }
  if (err.code === 'EACCES') return new UsageError(`Not allowed to listen on port ${port}: pick one above 1023 with --port.`);
  return err;
}

function duration(ms: number): string {
  const [n, unit] = ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

function abortReason(signal: AbortSignal): Error {
  const reason = signal.reason;
  return reason instanceof Error ? reason : Object.assign(new Error('Interrupted'), { name: 'AbortError' });
}
