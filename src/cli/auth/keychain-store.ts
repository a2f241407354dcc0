/**
 * Secrets in the OS keychain through @napi-rs/keyring (service "msgctl",
 * account = profile name), with a hard time limit on every call.
 *
 * Reads, which every command with a stored credential makes, stay in this
 * process: on Linux over the session D-Bus directly (secret-service-read.ts),
 * on macOS and Windows through the module (keychain-in-process.ts). What the
 * Linux reader does not answer for certain (a locked item, no bus address it
 * knows) goes the way writes go.
 *
 * Writes and deletes (login, auth set-key, a refresh, logout), and those reads,
 * run the module in a short-lived child process. In-process is not safe for
 * them: on Linux creating an entry connects to D-Bus synchronously, so a session
 * bus that accepts the connection but never answers blocks the event loop for
 * good (no timer can fire), and a thread stuck in a native call cannot be
 * stopped and keeps even process.exit() from returning. A child can be killed.
 * The library still gets an AbortSignal inside the child, and the parent races
 * the child against the deadline and kills it when it loses.
 *
 * On Linux the entry is pinned to the Secret Service: the library's default
 * falls back to the kernel keyring, which is lost on reboot (product.md §2).
 * Pinned, an unreachable Secret Service is an error, never a fallback.
 */
import { createRequire } from 'node:module';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { withoutSecrets } from '../util/secret-env.js';
import type { Env, SecretStore } from './secret-store-types.js';
import { DirectReadTimeout, type DirectAnswer } from './keychain-read.js';

export const KEYCHAIN_SERVICE = 'msgctl';
/**
 * Test runs set this (test/helpers, vitest.config.ts) so they never read, overwrite or
 * delete the developer's real msgctl entries on any OS: on macOS and Windows there is
 * no private keychain to point them at, as a private D-Bus does on Linux.
 */
export const KEYCHAIN_SERVICE_ENV = 'MSGCTL_KEYCHAIN_SERVICE';

export function keychainService(env: Env): string {
  return env[KEYCHAIN_SERVICE_ENV]?.trim() || KEYCHAIN_SERVICE;
}

type Action = 'read' | 'store' | 'delete';

const HEADLINE: Record<Action, string> = {
  read: 'Cannot read the stored credential from the OS keychain',
  store: 'Cannot store the credential in the OS keychain',
  delete: 'Cannot remove the credential from the OS keychain',
};

const ENV_HINT = 'Use the environment instead: MSGCTL_API_KEY for an API key, or MSGCTL_TOKEN for an OAuth access token.';
const FILE_HINT: Record<Action, string> = {
  store: 'Or re-run with --insecure-storage to keep it in a file readable only by you.',
  read: 'Or store the credential again with --insecure-storage (msgctl auth set-key or msgctl login), in a file readable only by you.',
  delete: 'Or store credentials with --insecure-storage from now on, in a file readable only by you.',
};

/** No usable keychain: says why, and the two ways out (env vars, --insecure-storage). */
export class SecretStoreUnavailableError extends CliError {
  constructor(
    readonly action: Action,
    /** What actually went wrong, in words a user can act on. */
    readonly reason: string,
  ) {
    super(`${HEADLINE[action]}: ${reason}`, ExitCode.Failure, [ENV_HINT, FILE_HINT[action]]);
    this.name = 'SecretStoreUnavailableError';
  }
}

type Operation = 'get' | 'set' | 'delete';
const ACTION_OF: Record<Operation, Action> = { get: 'read', set: 'store', delete: 'delete' };

/**
 * A read in this process: the secret (null: none), or `handOver` to the helper. Throws
 * DirectReadTimeout at the deadline, or an Error with the keychain's own message.
 */
export type DirectReader = (request: { service: string; account: string; env: Env; timeoutMs: number }) => Promise<DirectAnswer>;

export interface KeychainOptions {
  /** Starts one keychain call in a child; tests pass fakes (slow, size-limited). */
  launch?: HelperLauncher;
  platform?: NodeJS.Platform;
  /** Reads in this process: by default the one for `platform`; null sends every read to the helper. */
  readDirect?: DirectReader | null;
}

export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  private readonly launch: HelperLauncher;
  private readonly platform: NodeJS.Platform;
  private readonly readDirect: DirectReader | null;

  constructor(
    private readonly env: Env,
    readonly timeoutMs: number,
    options: KeychainOptions = {},
  ) {
    this.launch = options.launch ?? launchNodeHelper;
    this.platform = options.platform ?? process.platform;
    this.readDirect = options.readDirect === undefined ? directReaderFor(this.platform) : options.readDirect;
  }

  describe(): string {
    if (this.platform === 'darwin') return 'OS keychain (macOS Keychain)';
    if (this.platform === 'win32') return 'OS keychain (Windows Credential Manager)';
    return 'OS keychain (Secret Service)';
  }

  entryProblem(secret: string): string | null {
    return this.platform === 'win32' ? windowsEntryProblem(secret) : null;
  }

  async get(profile: string): Promise<string | null> {
    if (this.readDirect) {
      const answer = await this.readDirect({ service: keychainService(this.env), account: profile, env: this.env, timeoutMs: this.timeoutMs }).catch((err: unknown) => {
        const reason = err instanceof DirectReadTimeout ? timeoutReason(this.timeoutMs, this.platform) : explainKeychainFailure(err instanceof Error ? err.message : String(err), this.platform);
        throw new SecretStoreUnavailableError('read', reason);
      });
      if ('secret' in answer) return answer.secret;
    }
    const value = await this.call('get', profile);
    return typeof value === 'string' ? value : null;
  }

  async set(profile: string, secret: string): Promise<void> {
    await this.call('set', profile, secret);
  }

  async delete(profile: string): Promise<boolean> {
    return (await this.call('delete', profile)) === true;
  }

  private async call(op: Operation, profile: string, secret?: string): Promise<unknown> {
    const action = ACTION_OF[op];
    const helper = this.launch({ op, service: keychainService(this.env), account: profile, secret, env: this.env, timeoutMs: this.timeoutMs });
    const reply = await withDeadline(helper, this.timeoutMs, this.platform).catch((err: unknown) => {
      throw new SecretStoreUnavailableError(action, err instanceof Error ? err.message : String(err));
    });
    if (!reply.ok) throw new SecretStoreUnavailableError(action, explainKeychainFailure(reply.message, this.platform));
    return reply.value;
  }
}

/**
 * Windows Credential Manager keeps at most 2,560 bytes per entry (CRED_MAX_CREDENTIAL_BLOB_SIZE),
 * and the keychain module stores a secret as UTF-16: 1,280 UTF-16 code units, which is what
 * a JavaScript string's length counts. macOS's keychain and the Secret Service have no such limit.
 */
export const WINDOWS_ENTRY_LIMIT_BYTES = 2560;

function windowsEntryProblem(secret: string): string | null {
  const bytes = secret.length * 2;
  if (bytes <= WINDOWS_ENTRY_LIMIT_BYTES) return null;
  return `${secret.length.toLocaleString('en-US')} characters (${bytes.toLocaleString('en-US')} bytes), more than the 1,280 characters (2,560 bytes) Windows Credential Manager keeps in one entry`;
}

/** Linux: the Secret Service over D-Bus; macOS and Windows: the module in this process. */
function directReaderFor(platform: NodeJS.Platform): DirectReader | null {
  if (platform === 'linux') {
    return async ({ service, account, env, timeoutMs }) => (await import('./secret-service-read.js')).readSecretServiceDirect(env, service, account, timeoutMs);
  }
  if (platform === 'darwin' || platform === 'win32') {
    return async ({ service, account, timeoutMs }) => ({ secret: await (await import('./keychain-in-process.js')).readKeychainInProcess(service, account, timeoutMs) });
  }
  return null;
}

export type HelperReply = { ok: true; value: string | boolean | null } | { ok: false; message: string };

/**
 * The child's program (CommonJS, for `node -e`). argv: module path, operation,
 * service, account, timeout. The secret comes on stdin, never in argv, where
 * `ps` would show it. One JSON line comes back on stdout.
 */
const HELPER_SOURCE = `
const [modulePath, op, service, account, timeoutMs] = process.argv.slice(1);
const reply = (r) => process.stdout.write(JSON.stringify(r) + '\\n', () => process.exit(0));
let AsyncEntry;
try {
  ({ AsyncEntry } = require(modulePath));
  // Node is up and the module loaded (slow on a cold disk or under antivirus): from here on
  // the time is the keychain's own, which is what the deadline measures.
  process.stdout.write('ready\\n');
} catch (err) {
  reply({ ok: false, message: 'the keychain module could not be loaded: ' + String((err && err.message) || err) });
}
async function readStdin() {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  return text;
}
async function run() {
  const secret = op === 'set' ? await readStdin() : undefined;
  const entry = new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  const signal = AbortSignal.timeout(Number(timeoutMs));
  if (op === 'get') return entry.getPassword(signal);
  if (op === 'delete') return entry.deleteCredential(signal);
  await entry.setPassword(secret, signal);
  return null;
}
if (AsyncEntry) run().then(
  (value) => reply({ ok: true, value: value === undefined ? null : value }),
  (err) => reply({ ok: false, message: String((err && err.message) || err) }),
);
`;

let keyringModulePath: string | undefined;

function resolveKeyringModule(): string {
  keyringModulePath ??= createRequire(import.meta.url).resolve('@napi-rs/keyring');
  return keyringModulePath;
}

export interface HelperRequest {
  op: Operation;
  service: string;
  account: string;
  secret: string | undefined;
  env: Env;
  timeoutMs: number;
}

/** One running keychain call: `ready` once it can talk to the keychain, then its answer. */
export interface RunningHelper {
  ready: Promise<void>;
  answer: Promise<HelperReply>;
  kill(): void;
}

export type HelperLauncher = (request: HelperRequest) => RunningHelper;

/** Node start-up and module load get their own, generous limit; they are not the keychain. */
export const HELPER_START_LIMIT_MS = 20_000;

export const launchNodeHelper: HelperLauncher = ({ op, service, account, secret, env, timeoutMs }) => {
  let modulePath: string;
  try {
    modulePath = resolveKeyringModule();
  } catch {
    const failed = Promise.reject(new Error('the keychain module (@napi-rs/keyring) is not installed'));
    failed.catch(() => undefined);
    return { ready: failed, answer: failed, kill: () => undefined };
  }
  // What it needs of the environment is how to reach the keychain (D-Bus, HOME); never msgctl's own credentials.
  const childEnv = Object.fromEntries(Object.entries(withoutSecrets(env)).filter((e): e is [string, string] => e[1] !== undefined));
  const killer = new AbortController();
  // Loaded here, not at the top: a read that never needs the helper loads no child_process.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(process.execPath, ['-e', HELPER_SOURCE, modulePath, op, service, account, String(timeoutMs)], {
    env: childEnv,
    stdio: ['pipe', 'pipe', 'ignore'],
    signal: killer.signal,
    killSignal: 'SIGKILL',
    windowsHide: true,
  });

  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const answer = new Promise<HelperReply>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.startsWith('ready\n')) markReady();
    });
    child.on('error', (err) => {
      if (err.name !== 'AbortError') reject(new Error(`the keychain helper could not start (${err.message})`));
    });
    child.on('close', (code, signal) => {
      const parsed = parseReply(out.replace(/^ready\n/, ''));
      if (parsed) resolve(parsed);
      else reject(new Error(`the keychain helper ended without an answer (${signal ? `signal ${signal}` : `exit code ${code}`})`));
    });
  });
  // An answer (or a failure) also means the helper got that far.
  answer.then(markReady, markReady);
  // The child may die before reading its stdin; that surfaces through 'close'.
  child.stdin.on('error', () => undefined);
  child.stdin.end(secret ?? '');
  return { ready, answer, kill: () => killer.abort() };
};

/**
 * Races the helper against two clocks: start-up (bounded by HELPER_START_LIMIT_MS) and
 * the keychain deadline, which starts only once the helper is ready, so a slow Node
 * start never eats the time a person has to answer a keychain dialog.
 */
export function withDeadline(helper: RunningHelper, timeoutMs: number, platform: NodeJS.Platform = process.platform): Promise<HelperReply> {
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const deadline = new Promise<never>((_, reject) => {
    const fail = (message: string) => {
      if (settled) return;
      helper.kill();
      reject(new Error(message));
    };
    timer = setTimeout(() => fail(`the keychain helper did not start within ${HELPER_START_LIMIT_MS / 1000} s`), HELPER_START_LIMIT_MS);
    helper.ready.then(
      () => {
        clearTimeout(timer);
        if (settled) return;
        timer = setTimeout(() => fail(timeoutReason(timeoutMs, platform)), timeoutMs);
      },
      () => undefined,
    );
  });
  deadline.catch(() => undefined);
  return Promise.race([helper.answer, deadline]).finally(() => {
    settled = true;
    clearTimeout(timer);
  });
}

function timeoutReason(timeoutMs: number, platform: NodeJS.Platform): string {
  const base = `the OS keychain did not answer within ${timeoutMs} ms (MSGCTL_KEYCHAIN_TIMEOUT_MS sets the limit)`;
  if (platform === 'darwin') {
    return `${base}; macOS may be waiting for you to allow "node" to use the keychain (asked again after every Node upgrade): answer the dialog, then run the command again`;
  }
  if (platform === 'win32') return `${base}; Windows Credential Manager is busy or blocked (security software can hold it)`;
  return base;
}

function parseReply(out: string): HelperReply | undefined {
  try {
    const value: unknown = JSON.parse(out.trim());
    if (typeof value === 'object' && value !== null && 'ok' in value) return value as HelperReply;
  } catch {
    // fall through: no usable answer
  }
  return undefined;
}

/**
 * Turns the library's message into the reason a user can act on, keeping the
 * original after it for whoever has to debug the machine. The rules are per OS:
 * D-Bus means nothing on macOS or Windows.
 */
export function explainKeychainFailure(raw: string, platform: NodeJS.Platform = process.platform): string {
  const rules = platform === 'darwin' ? MACOS_RULES : platform === 'win32' ? WINDOWS_RULES : LINUX_RULES;
  const rule = [...rules, ...COMMON_RULES].find(([pattern]) => pattern.test(raw));
  return rule ? `${rule[1]} [${raw}]` : raw;
}

type Rule = [RegExp, string];

const LINUX_RULES: Rule[] = [
  [/not provided by any \.service files|ServiceUnknown|NameHasNoOwner/i, 'no Secret Service is running on the session D-Bus'],
  [
    /DBUS_SESSION_BUS_ADDRESS|autolaunch|Failed to connect to socket|Connection refused|No such file or directory/i,
    'no session D-Bus is reachable, so there is no Secret Service to use (usual on headless servers, in containers and under cron)',
  ],
  [/prompt was dismissed|locked/i, 'the keyring is locked, and unlocking it needs a desktop prompt that could not be shown'],
  [/no result found/i, 'the Secret Service has no default keyring (one is normally created at the first desktop login)'],
  [/Did not receive a reply|timed? ?out|AbortError|aborted/i, 'the Secret Service did not answer in time'],
];

const MACOS_RULES: Rule[] = [
  [
    /interaction is not allowed|-25308/i,
    'the login keychain is locked and macOS cannot ask to unlock it here (usual over ssh, under cron or launchd before you log in)',
  ],
  [/user canceled|-128\b/i, 'the keychain dialog was cancelled (answer "Allow" or "Always Allow" to let msgctl use it)'],
  [/passphrase|-25293|auth(entication)? fail/i, 'the keychain refused the password given to unlock it'],
  [/no keychain|-25294|-25307/i, 'there is no default keychain for this user (Keychain Access > File > New Keychain, then make it the default)'],
  [/timed? ?out|AbortError|aborted/i, 'the keychain did not answer in time (is a keychain dialog waiting for you?)'],
];

const WINDOWS_RULES: Rule[] = [
  [
    /logon session does not exist|1312/i,
    'this Windows logon session has no Credential Manager: a Task Scheduler task set to "Run whether user is logged on or not" with "Do not store password" checked runs without one; store the password with the task (LogonType Password), or give the task MSGCTL_API_KEY or --insecure-storage',
  ],
  [/longer than platform limit|too long|2560/i, 'the credential is larger than Windows Credential Manager accepts (2,560 bytes per entry)'],
  [/timed? ?out|AbortError|aborted/i, 'Windows Credential Manager did not answer in time'],
];

const COMMON_RULES: Rule[] = [[/AccessDenied|Access denied|access is denied|not permitted/i, 'access to the keychain was denied']];
