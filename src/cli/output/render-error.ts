/**
 * Turns whatever ended a command into one readable block on stderr (or one
 * JSON line with --json) and the exit code of product.md §2.
 */
import { ApiError, NetworkError } from '../api/errors.js';
import { NotTheApiError } from '../api/not-the-api.js';
import { isLoopbackHost } from '../api/loopback.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { localProblem } from './local-problem.js';
import { shownUrl } from './shown-url.js';
import { docPath } from '../util/package-root.js';
import type { OutStream } from './output.js';
import { cell, stringifyWellFormed, terminalSafe } from './terminal-text.js';
import { clearVariablePhrase, signalWords } from './platform-words.js';
import { shellWord } from '../util/shell-word.js';

export interface ErrorSink {
  stderr: OutStream;
  json: boolean;
  verbose: boolean;
  /** The base URL the command used, when one was configured: some hints depend on it. */
  baseUrl?: string | null;
  /** Where the command's credential came from, when it looked for one: hints depend on it too. */
  credentialSource?: string | null;
  /** How a re-run of the command sends a write's Idempotency-Key again, if it can (Context.rerunWith). */
  rerunWith?: (key: string) => 'flag' | 'header' | undefined;
}


export function renderError(err: unknown, sink: ErrorSink): ExitCode {
  // Problems quote the service (title, detail, field errors) and local errors quote files and
  // arguments: a person's terminal gets their control characters as visible escapes.
  const write = (text: string) => {
    const safe = sink.json ? text : terminalSafe(text, { keepLines: true });
    sink.stderr.write(safe.endsWith('\n') ? safe : safe + '\n');
  };

  if (err instanceof ApiError) {
    if (sink.json) {
      write(stringifyWellFormed(err.problem));
    } else {
      // Each value the service sent stays on its line (cell()): a newline in a detail would start a
      // line of its own, where it could pass for msgctl's "hint:".
      const lines = [`error: ${cell(err.title)} (${cell(err.code)}, HTTP ${err.status})`];
      if (err.detail) lines.push(`  ${cell(err.detail)}`);
      for (const fe of err.fieldErrors) lines.push(`  - ${cell(fe.path)}: ${cell(fe.message)} [${cell(fe.code)}]`);
      for (const [key, value] of Object.entries(err.extensions)) {
        if (isListOfObjects(value)) {
          // e.g. ambiguous_recipient's candidates: one per line, so an id can be copied.
          lines.push(`  ${cell(key)}:`, ...value.map((item) => `    - ${cell(formatItem(item))}`));
        } else lines.push(`  ${cell(key)}: ${cell(formatExtension(value))}`);
      }
      if (err.status === 429 && err.retryAfterMs !== null) {
        lines.push(`  retry after: ${Math.ceil(err.retryAfterMs / 1000)} s (the service's Retry-After)`);
      }
      lines.push(`  request id: ${cell(err.requestId) || '(none)'}`);
      const hint = hintFor(err, sink.credentialSource ?? null) ?? baseUrlHint(err, sink.baseUrl) ?? retriedHint(err, sink.rerunWith?.(err.idempotencyKey ?? ''));
      if (hint) lines.push(`  hint: ${hint}`);
      write(lines.join('\n'));
    }
    return err.exitCode;
  }
  if (err instanceof NetworkError) {
    const { message, hints } = describeNetworkError(err, sink.baseUrl);
    const again = rerunIfMayHaveArrived(err, sink);
    if (again) hints.unshift(`The connection broke after the request was sent, so it may have been done all the same. ${again}`);
    if (sink.json) write(stringifyWellFormed(localProblem('network_error', 'Service unavailable', message, hints)));
    else write([`error: ${message}`, ...hints.map((h) => `  ${h}`)].join('\n'));
    return ExitCode.Unavailable;
  }
  if (err instanceof CliError && err.name === 'Declined') {
    // A "no" at a confirmation: nothing failed, so no "error:" (util/confirm.ts).
    if (sink.json) write(stringifyWellFormed(localProblem('declined', 'Nothing changed', err.message)));
    else write(err.message);
    return err.exitCode;
  }
  if (err instanceof NotTheApiError) {
    // A 2xx answer that is not the API's: its request id is the one thing to give a support desk.
    if (sink.json) write(stringifyWellFormed(localProblem('unexpected_answer', 'Unexpected answer', err.message, err.hints, err.requestId)));
    else write([`error: ${err.message}`, ...err.hints.map((h) => `  ${h}`)].join('\n'));
    return err.exitCode;
  }
  if (err instanceof CliError) {
    const [code, title] =
      err.exitCode === ExitCode.Usage
        ? ['usage_error', 'Usage error']
        : err.exitCode === ExitCode.Auth
          ? ['auth_error', 'Not authenticated']
          : ['error', 'Command failed'];
    if (sink.json) write(stringifyWellFormed(localProblem(err.problemCode ?? code, title, err.message, err.hints)));
    else write([`error: ${err.message}`, ...err.hints.map((h) => `  ${h}`)].join('\n'));
    return err.exitCode;
  }
  if (isAbort(err)) {
    const terminated = (err as { signal?: string }).signal === 'SIGTERM';
    // Which signal it was, in the platform's words (a closed console window on Windows is SIGHUP to Node).
    const why = signalWords((err as { received?: string }).received ?? 'SIGTERM');
    // Stopped with a write on its way (api/client.ts): the way to finish it without doing it twice.
    const again = rerunIfMayHaveArrived(err as WriteOnItsWay, sink);
    const hints = again ? [`The request was sent before msgctl stopped, so it may have been done all the same. ${again}`] : [];
    if (sink.json) write(stringifyWellFormed(localProblem('interrupted', 'Interrupted', terminated ? `Terminated (${why}).` : 'Interrupted (Ctrl-C).', hints)));
    else write([terminated ? 'Terminated.' : 'Interrupted.', ...hints.map((h) => `  ${h}`)].join('\n'));
    // Shell convention: 128 + signal number (SIGINT 2, SIGTERM 15).
    return terminated ? ExitCode.Terminated : ExitCode.Interrupted;
  }
  const message = err instanceof Error ? err.message : String(err);
  if (sink.json) write(stringifyWellFormed(localProblem('internal', 'Unexpected error', message)));
  else write(`error: ${message}`);
  if (sink.verbose && err instanceof Error && err.stack) write(err.stack);
  return ExitCode.Failure;
}

function isListOfObjects(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => v && typeof v === 'object' && !Array.isArray(v));
}

/** `{id, name, mrn}` → `<id>  name: Jamie Rivera  mrn: A-2002` (the id first and bare). */
function formatItem(item: Record<string, unknown>): string {
  const parts = Object.entries(item).map(([k, v]) => {
    const text = v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return k === 'id' ? text : `${k}: ${text}`;
  });
  const idIndex = Object.keys(item).indexOf('id');
  if (idIndex > 0) parts.unshift(...parts.splice(idIndex, 1));
  return parts.join('  ');
}

function formatExtension(value: unknown): string {
  if (Array.isArray(value)) {
    return value.map((v) => (v && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function hintFor(err: ApiError, source: string | null): string | null {
  // A credential from the environment overrides whatever the profile stores: sending the user to
  // `auth set-key` or `login` would change nothing (docs/authentication.md).
  const variable = source?.startsWith('env:') ? source.slice(4) : null;
  if (variable && (err.code === 'invalid_token' || err.code === 'unauthorized' || err.code === 'http_401')) {
    return `the ${variable === 'MSGCTL_TOKEN' ? 'access token' : 'API key'} in ${variable} was refused. ${variable} overrides the profile's stored credential, so \`msgctl auth set-key\` or \`msgctl login\` would not change what is sent: fix the variable, or ${clearVariablePhrase(variable)} to use the stored one.`;
  }
  if (variable === 'MSGCTL_API_KEY' && err.code === 'oauth_required') {
    return `this needs an org admin's OAuth login, and MSGCTL_API_KEY (an API key) overrides any login: ${clearVariablePhrase('MSGCTL_API_KEY')} and run \`msgctl login\`, or set MSGCTL_TOKEN instead.`;
  }
  switch (err.code) {
    case 'campaign_not_running':
      return 'pause takes a running campaign, stop a running or paused one; `msgctl campaigns get ID` shows its status.';
    case 'campaign_not_editable':
      return 'a campaign starts from draft or paused, and a running, completed or stopped one cannot be changed; `msgctl campaigns get ID` shows its status.';
    case 'ambiguous_recipient':
      return 'send to one of the candidates with --to <patient-id>, or add --mrn.';
    case 'from_required':
      return 'pass --from with one of the organization\'s numbers.';
    case 'oauth_required':
      return 'this needs an org admin\'s OAuth login: run `msgctl login`.';
    case 'insufficient_scope':
      return variable
        ? `use a credential with that scope: ${variable} overrides the profile's stored one, so set it to one that has the scope, or ${clearVariablePhrase(variable)} to use the stored one (\`msgctl auth status\` lists a credential's scopes).`
        : 'use a credential with that scope: store an API key that has it with `msgctl auth set-key`, or run `msgctl login` (a login asks for every scope); `msgctl auth status` lists this one\'s scopes.';
    case 'invalid_token':
    case 'unauthorized':
    case 'http_401': // a 401 without a problem document (a gateway's): the credential all the same
      return source === 'keychain' || source === 'file'
        ? 'the stored credential was refused: store a new API key with `msgctl auth set-key`, or log in again with `msgctl login` (`msgctl auth status` shows which one the profile has).'
        : 'check the credential with `msgctl auth status`: store a new API key with `msgctl auth set-key`, or log in again with `msgctl login`.';
    case 'invalid_query':
      return `fix the -q query at the position above; the search language is in ${docPath('search-language.md')}.`;
    case 'patient_opted_out':
      return 'the patient replied STOP to this number. A secure message goes by email to a patient who has one (--channel secure; add one with `msgctl patients update ID --email ADDRESS`), or wait until they text START.';
    default:
      return null;
  }
}

/**
 * After retries that all failed: how many, and, where the command can send the same
 * Idempotency-Key again, how (the re-run is then done at most once). Only there: `imports
 * create`'s --idempotency-key is a seed its chunk keys come from, and `campaigns recipients add`
 * has none, so naming the key sent would lead to a second write, or to an unknown option.
 */
function retriedHint(err: ApiError, rerunWith: 'flag' | 'header' | undefined): string | null {
  if (err.attempts < 2 || !(err.status === 429 || err.status >= 500)) return null;
  const tried = `msgctl tried ${err.attempts} times (--retries ${err.attempts - 1}).`;
  const again = err.idempotencyKey ? rerunCommand(err.idempotencyKey, rerunWith) : null;
  return `${tried} ${again ?? 'Try again later.'}`;
}

/** A failed write as a NetworkError, or an abort the client passed on (api/client.ts), describes it. */
interface WriteOnItsWay {
  idempotencyKey?: string | null;
  mayHaveArrived?: boolean;
}

/** For a write that may have reached the service: how to finish it without doing it twice, where the command can. */
function rerunIfMayHaveArrived(err: WriteOnItsWay, sink: ErrorSink): string | null {
  return err.idempotencyKey && err.mayHaveArrived ? rerunCommand(err.idempotencyKey, sink.rerunWith?.(err.idempotencyKey)) : null;
}

/** How to run the command again with the key it sent, where it can send it again (Context.rerunWith). */
function rerunCommand(key: string, rerunWith: 'flag' | 'header' | undefined): string | null {
  if (!rerunWith) return null;
  const again = rerunWith === 'flag' ? `--idempotency-key ${shellWord(key)}` : `-H ${shellWord(`Idempotency-Key: ${key}`)}`;
  return `Run the same command with ${again} (the key it sent): the service does it at most once.`;
}

/** A 404 from a base URL that does not end in a version: the request went to the API's parent path. */
function baseUrlHint(err: ApiError, baseUrl: string | null | undefined): string | null {
  if (err.status !== 404 || !baseUrl) return null;
  let path: string;
  try {
    path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
  if (/\/v\d+$/.test(path)) return null;
  const shown = shownUrl(baseUrl).replace(/\/+$/, '');
  return `the base URL ${shown} does not end in /v1; API base URLs do (for example ${shown}/v1).`;
}

/**
 * Node repeats the error code in its message ("ECONNREFUSED: connect
 * ECONNREFUSED 127.0.0.1:4010"): say it once, in words, and say what to do —
 * for a loopback base URL, most likely the sandbox is not running.
 */
export function describeNetworkError(err: NetworkError, baseUrl: string | null | undefined): { message: string; hints: string[] } {
  const code = err.causeCode;
  let message = err.message;
  if (code) {
    const repeated = new RegExp(`${code}: \\w+ ${code}(?: \\S+)?`);
    message = message.replace(repeated, NETWORK_WORDS[code] ? `${NETWORK_WORDS[code]} (${code})` : code);
  }
  const hints: string[] = [];
  if (code === 'ECONNREFUSED' && baseUrl && isLoopbackUrl(baseUrl)) {
    hints.push(
      `Nothing is listening at ${shownUrl(baseUrl)}. If that is the sandbox, start it in another terminal: \`msgctl sandbox\`` +
        ' (`--write-profile` saves its base URL and key as profile "sandbox"), then run the command again.',
    );
  } else {
    hints.push('Check the network, the proxy settings (HTTPS_PROXY, NO_PROXY) and --base-url.');
  }
  return { message, hints };
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function isLoopbackUrl(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && isLoopbackHost(parsed.hostname);
}

export function isAbort(err: unknown): boolean {
  if (err instanceof DOMException && err.name === 'AbortError') return true;
  if (!(err instanceof Error)) return false;
  // ExitPromptError: Ctrl-C at an @inquirer prompt.
  return err.name === 'AbortError' || err.name === 'ExitPromptError' || (err as { code?: string }).code === 'ABORT_ERR';
}
