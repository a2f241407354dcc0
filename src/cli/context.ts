/**
 * The small object every command receives: its I/O streams, environment,
 * global options, Ctrl-C signal, lazily built config and API client, and the
 * services that touch the world outside the process (prompts, the browser,
 * time, the HTTP connection pool). Commands and helpers import only this
 * interface; command-context.ts builds it, so a test can run any command
 * in-process with in-memory streams and doubles for the services.
 */
import type { Readable } from 'node:stream';
import type { HttpTransport } from './api/http.js';
import type { Output, OutStream } from './output/output.js';
import type { ApiClient, CredentialProvider } from './api/client.js';
import type { ConfigStore, ProfileConfig } from './config/config.js';
import type { ResolvedCredential } from './auth/credentials.js';

export type Env = Record<string, string | undefined>;

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: Readable & { isTTY?: boolean };
}

import type { ColorMode } from './output/types.js';

export type { ColorMode };

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  /** --json, with or without fields (also set by --jq and --template: they work on the JSON records). */
  json: boolean;
  /** --json itself was given (not only --jq or --template): errors are problem lines then. */
  jsonFlag: boolean;
  /** --json id,name: the comma list as given (checked by output/json-fields.ts). */
  jsonFields?: string;
  /** --jq EXPR (commands with formatOptions()). */
  jq?: string;
  /** --template TEXT (commands with formatOptions()). */
  template?: string;
  verbose: boolean;
  quiet: boolean;
  /** False for --no-color / --color never. */
  color: boolean;
  /** --color when given (--no-color is 'never'); undefined lets the environment and profile decide. */
  colorMode?: ColorMode;
  /** False for --no-pager. */
  pager?: boolean;
  /** --plain: records as label: value lines, no tables, bars or colour (screen readers). */
  plain?: boolean;
  /** -o FILE: what the command prints goes to FILE (output/file-output.ts). */
  output?: string;
  /** Seconds per request attempt. */
  timeout: number;
  retries: number;
  /** --wide (on commands that print tables): every column, however wide the terminal. */
  wide?: boolean;
  /** True when --retries was on the command line, so a command may pick its own default otherwise. */
  retriesGiven?: boolean;
}

/** Questions for the person at the terminal (only asked when ctx.interactive). */
export interface Prompter {
  /**
   * A yes/no question, "no" unless answered yes; `signal` (Ctrl-C, SIGTERM) ends the wait. `plain`
   * (--plain, MSGCTL_PLAIN): one "(y/N)" line, never a prompt redrawn in place, which a screen
   * reader reads again on every redraw.
   */
  confirm(question: string, io: Io, signal?: AbortSignal, how?: { plain?: boolean }): Promise<boolean>;
  /** Hidden input, for secrets; `signal` (Ctrl-C, SIGTERM) ends the wait. */
  password(question: string, io: Io, signal?: AbortSignal): Promise<string>;
}

export interface Clock {
  now(): number;
  /** Waits `ms`; an abort (Ctrl-C) cuts it short by rejecting with the signal's reason. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The outside world, injected: the real ones by default (services.ts), loaded only when used. */
export interface Services {
  prompter: Prompter;
  /** Opens `url` in the user's browser; `onError` if that fails after starting. Rejects if it cannot start. */
  openBrowser(url: string, onError: () => void): Promise<void>;
  clock: Clock;
  /** The HTTP transport (keep-alive connections, proxies) shared by the API and OAuth clients of this process. */
  transport(): Promise<HttpTransport>;
}

export interface Context {
  readonly io: Io;
  readonly env: Env;
  readonly opts: GlobalOptions;
  /** Aborted on Ctrl-C / SIGTERM. */
  readonly signal: AbortSignal;
  readonly services: Services;
  readonly out: Output;
  /** Prompts are allowed only when a person is at a terminal. */
  readonly interactive: boolean;
  verbose(line: string): void;
  config(): Promise<ConfigStore>;
  profileName(): Promise<string>;
  profile(): Promise<ProfileConfig | undefined>;
  /** --base-url, then MSGCTL_BASE_URL, then the profile's; null when none is configured. */
  configuredBaseUrl(): Promise<string | null>;
  /** The base URL to use; a usage error (with the ways to set one) when none is configured. */
  baseUrl(): Promise<string>;
  /** How phone numbers without a country code are read: --region, then the profile's, then US. */
  region(flag?: string): Promise<string>;
  credential(): Promise<ResolvedCredential | null>;
  /** The API client for this command; fails with exit 3 when no credential exists. */
  client(): Promise<ApiClient>;
  /** How requests authenticate: a fixed bearer, or OAuth tokens that refresh themselves. */
  credentialProvider(): Promise<CredentialProvider>;
  /** An API client with this command's base URL, timeouts, retries and logging, for the given credential. */
  clientFor(credential: CredentialProvider): Promise<ApiClient>;
  /**
   * The caller's --idempotency-key (checked to be a UUID) or a fresh one for this invocation: for
   * commands whose --idempotency-key is the key sent, so an error that outlasted the retries can
   * say to run the command again with it (rerunWith).
   */
  idempotencyKey(given?: string): string;
  /** A fresh key for a write of a command that has no --idempotency-key to send it again with. */
  freshIdempotencyKey(): string;
  /** `key`, noted as one a re-run sends again with -H 'Idempotency-Key: …' (msgctl api). */
  headerIdempotencyKey(key: string): string;
  /** How a re-run of this command sends `key` again, if it can: --idempotency-key, or the -H header. */
  rerunWith(key: string): 'flag' | 'header' | undefined;
}
