/**
 * Secrets in the OS keychain through @napi-rs/keyring (service "msgctl",
 * account = profile name), with a hard time limit on every call.
 *
 * Each call runs in a short-lived child process. In-process is not safe:
 * creating an entry connects to D-Bus synchronously, so a session bus that
 * accepts the connection but never answers blocks the event loop for good
 * (no timer can fire), and a worker thread stuck in that native call cannot
 * be terminated and keeps even process.exit() from returning. A child can be
 * killed. The library still gets an AbortSignal inside the child, and the
 * parent races the child against the deadline and kills it when it loses.
 *
 * On Linux the entry is pinned to the Secret Service: the library's default
 * falls back to the kernel keyring, which is lost on reboot (product.md §2).
 * Pinned, an unreachable Secret Service is an error, never a fallback.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { CliError } from '../errors.js';
import { ExitCode } from '../output/exit-codes.js';
import type { Env, SecretStore } from './secret-store-types.js';

export const KEYCHAIN_SERVICE = 'msgctl';

type Action = 'read' | 'store' | 'delete';

const HEADLINE: Record<Action, string> = {
  read: 'Cannot read the stored credential from the OS keychain',
  store: 'Cannot store the credential in the OS keychain',
  delete: 'Cannot remove the credential from the OS keychain',
};

const ENV_HINT = 'Use the environment instead: MSGCTL_API_KEY for an API key, or MSGCTL_TOKEN for an OAuth access token.';
const FILE_HINT: Record<Action, string> = {
  store: 'Or re-run with --insecure-storage to keep it in a file readable only by you (mode 0600).',
  read: 'Or store the credential again with --insecure-storage (msgctl auth set-key or msgctl login), in a file readable only by you (mode 0600).',
  delete: 'Or store credentials with --insecure-storage from now on, in a file readable only by you (mode 0600).',
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

export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;

  constructor(
    private readonly env: Env,
    readonly timeoutMs: number,
  ) {}

  describe(): string {
    if (process.platform === 'darwin') return 'OS keychain (macOS Keychain)';
    if (process.platform === 'win32') return 'OS keychain (Windows Credential Manager)';
    return 'OS keychain (Secret Service)';
  }

  async get(profile: string): Promise<string | null> {
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
    const reply = await runHelper(op, profile, secret, this.env, this.timeoutMs).catch((err: unknown) => {
      throw new SecretStoreUnavailableError(action, err instanceof Error ? err.message : String(err));
    });
    if (!reply.ok) throw new SecretStoreUnavailableError(action, explainKeychainFailure(reply.message));
    return reply.value;
  }
}

type HelperReply = { ok: true; value: string | boolean | null } | { ok: false; message: string };

/**
 * The child's program (CommonJS, for `node -e`). argv: module path, operation,
 * service, account, timeout. The secret comes on stdin, never in argv, where
 * `ps` would show it. One JSON line comes back on stdout.
 */
const HELPER_SOURCE = `
const [modulePath, op, service, account, timeoutMs] = process.argv.slice(1);
const reply = (r) => process.stdout.write(JSON.stringify(r) + '\\n', () => process.exit(0));
async function readStdin() {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  return text;
}
async function run() {
  const secret = op === 'set' ? await readStdin() : undefined;
  const { AsyncEntry } = require(modulePath);
  const entry = new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  const signal = AbortSignal.timeout(Number(timeoutMs));
  if (op === 'get') return entry.getPassword(signal);
  if (op === 'delete') return entry.deleteCredential(signal);
  await entry.setPassword(secret, signal);
  return null;
}
run().then(
  (value) => reply({ ok: true, value: value === undefined ? null : value }),
  (err) => reply({ ok: false, message: String((err && err.message) || err) }),
);
`;

let keyringModulePath: string | undefined;

function resolveKeyringModule(): string {
  keyringModulePath ??= createRequire(import.meta.url).resolve('@napi-rs/keyring');
  return keyringModulePath;
}

function runHelper(op: Operation, account: string, secret: string | undefined, env: Env, timeoutMs: number): Promise<HelperReply> {
  let modulePath: string;
  try {
    modulePath = resolveKeyringModule();
  } catch {
    return Promise.reject(new Error('the keychain module (@napi-rs/keyring) is not installed'));
  }
  const childEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  const killer = new AbortController();
  const child = spawn(process.execPath, ['-e', HELPER_SOURCE, modulePath, op, KEYCHAIN_SERVICE, account, String(timeoutMs)], {
    env: childEnv,
    stdio: ['pipe', 'pipe', 'ignore'],
    signal: killer.signal,
    killSignal: 'SIGKILL',
    windowsHide: true,
  });

  const finished = new Promise<HelperReply>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.on('error', (err) => {
      if (err.name !== 'AbortError') reject(new Error(`the keychain helper could not start (${err.message})`));
    });
    child.on('close', (code, signal) => {
      const parsed = parseReply(out);
      if (parsed) resolve(parsed);
      else reject(new Error(`the keychain helper ended without an answer (${signal ? `signal ${signal}` : `exit code ${code}`})`));
    });
  });
  // The child may die before reading its stdin; that surfaces through 'close'.
  child.stdin.on('error', () => undefined);
  child.stdin.end(secret ?? '');

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      killer.abort();
      reject(new Error(`the OS keychain did not answer within ${timeoutMs} ms (MSGCTL_KEYCHAIN_TIMEOUT_MS sets the limit)`));
    }, timeoutMs);
  });
  return Promise.race([finished, deadline]).finally(() => clearTimeout(timer));
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
 * original after it for whoever has to debug the machine.
 */
export function explainKeychainFailure(raw: string): string {
  const rules: [RegExp, string][] = [
    [/not provided by any \.service files|ServiceUnknown|NameHasNoOwner/i, 'no Secret Service is running on the session D-Bus'],
    [
      /DBUS_SESSION_BUS_ADDRESS|autolaunch|Failed to connect to socket|Connection refused|No such file or directory/i,
      'no session D-Bus is reachable, so there is no Secret Service to use (usual on headless servers, in containers and under cron)',
    ],
    [/prompt was dismissed|locked/i, 'the keyring is locked, and unlocking it needs a desktop prompt that could not be shown'],
    [/no result found/i, 'the Secret Service has no default keyring (one is normally created at the first desktop login)'],
    [/Did not receive a reply|timed? ?out|AbortError|aborted/i, 'the Secret Service did not answer in time'],
    [/AccessDenied|Access denied|not permitted/i, 'access to the keychain was denied'],
  ];
  const rule = rules.find(([pattern]) => pattern.test(raw));
  return rule ? `${rule[1]} [${raw}]` : raw;
}
