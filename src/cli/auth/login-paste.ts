/**
 * The paste fallback of `msgctl login --no-browser` (as gh and gcloud offer):
 * over SSH the browser runs on another machine, so its redirect to
 * http://127.0.0.1:PORT/callback reaches nothing there. The person copies the
 * URL the browser ended on and pastes it here. It is judged exactly as the
 * listener judges a callback (login-listener.ts): the state must be this
 * login's, and the code is then exchanged with this login's PKCE verifier.
 */
import { createInterface } from 'node:readline';
import type { Context } from '../context.js';
import { CALLBACK_PATH, judgeCallback } from './login-listener.js';

/** Resolves with the code from a pasted redirect URL; stays pending (reading nothing more) once `signal` aborts. */
export function waitForPastedRedirect(ctx: Context, expectedState: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: ctx.io.stdin, terminal: false });
    const stop = () => {
      lines.close();
      signal.removeEventListener('abort', stop);
    };
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    lines.on('line', (line) => {
      const text = line.trim();
      if (!text) return;
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        ctx.out.warn(`that is not a URL; paste the whole address the browser ended on (http://127.0.0.1:…${CALLBACK_PATH}?code=…&state=…).`);
        return;
      }
      if (url.pathname !== CALLBACK_PATH) {
        ctx.out.warn(`that is not the sign-in redirect (its path is not ${CALLBACK_PATH}); paste the address the browser ended on after you approved.`);
        return;
      }
      stop();
      const judged = judgeCallback(url, expectedState);
      if (judged.ok) resolve(judged.code);
      else reject(judged.error);
    });
  });
}
