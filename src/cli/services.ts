/**
 * The real outside world for a Context: @inquirer prompts, the `open`
 * package, the system clock, and one HTTP transport per process. Each is
 * imported the first time it is used, so start-up stays lazy.
 */
import { createRequire } from 'node:module';
import type { HttpTransport } from './api/http.js';
import type { Env, Services } from './context.js';
import { sleep } from './util/sleep.js';
import { writableOf } from './output/direct-output.js';

let sharedTransport: Promise<HttpTransport> | undefined;

export function defaultServices(env: Env): Services {
  return {
    prompter: {
      async confirm(question, io, signal, how) {
        // TERM=dumb, NO_COLOR, CLICOLOR=0 or --plain: no cursor control, so not @inquirer's redrawn line either.
        const { cursorControl } = await import('./output/terminal-env.js');
        if (!cursorControl(io.stderr, env, Boolean(how?.plain))) return (await import('./util/plain-confirm.js')).plainConfirm(question, io, signal);
        const { confirm } = await import('@inquirer/prompts');
        return ended(confirm({ message: question, default: false }, { input: io.stdin, output: writableOf(io.stderr), signal }), signal);
      },
      async password(question, io, signal) {
        const { password } = await import('@inquirer/prompts');
        return ended(password({ message: question, mask: false }, { input: io.stdin, output: writableOf(io.stderr), signal }), signal);
      },
    },
    async openBrowser(url, onError) {
      // require(), not import(): the bundle is CommonJS and turns import() into require() wrapped so that
      // `default` is the whole namespace (esbuild's Node-mode interop); Node's require of this ES module
      // gives its namespace, whose `default` is the function.
      const { default: open } = createRequire(import.meta.url)('open') as typeof import('open');
      const child = await open(url);
      child.on('error', onError);
    },
    clock: { now: () => Date.now(), sleep },
    transport() {
      // Keep-alive connections are reused by every client of the process (API, OAuth, login's GET /me).
      sharedTransport ??= import('./api/transport.js').then(({ createTransport }) => createTransport(env));
      return sharedTransport;
    },
  };
}

/**
 * A prompt's answer; when Ctrl-C or SIGTERM ended it (the signal), the signal's own reason, so the
 * command ends as any interrupted one does (130, 143, "Terminated."), not with @inquirer's
 * AbortPromptError as a failure.
 */
async function ended<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err;
  }
}
