/**
 * The checks of `msgctl doctor` (docs/scripting.md, "msgctl doctor"): what
 * newcomers and scheduled jobs trip on. Each is bounded: a keychain call by its
 * deadline, a child process and each request by a timeout, so the doctor
 * itself never hangs where msgctl would.
 */
import { join } from 'node:path';
import type { Context } from '../context.js';
import type { CheckResult } from './check.js';
import { shownUrl } from '../output/shown-url.js';
import { ORGANIZATION, PROFILE } from '../api/shapes.js';

const { closeSync, existsSync } = process.getBuiltinModule('node:fs');

/** Requests of the doctor wait at most this long (or --timeout, if shorter). */
const REQUEST_TIMEOUT_MS = 5_000;
/** Beyond this, tokens look expired or not yet valid to one side: broken. */
const SKEW_FAIL_S = 300;
const SKEW_WARN_S = 60;

export function nodeCheck(): CheckResult {
  const major = Number(process.versions.node.split('.')[0]);
  const tested = major === 22 || major === 24;
  return {
    check: 'node',
    status: tested ? 'ok' : 'warn',
    detail: `Node ${process.version} at ${process.execPath}${tested ? '' : ' (works, but msgctl is tested on the 22 and 24 LTS lines)'}`,
    fix: tested ? undefined : 'install Node 24 (docs/getting-started.md, "Install")',
  };
}

/**
 * The OS keychain, probed with a read of an entry nobody has (no dialog), under
 * the same deadline as every keychain call. Unusable is a failure only when the
 * profile's credential lives there; a file fallback is checked for its mode.
 */
export async function keychainCheck(ctx: Context): Promise<CheckResult> {
  const profile = await ctx.profile();
  const storage = profile?.credential?.storage;
  if (storage === 'file') {
    const { insecureCredentialsFile } = await import('../config/paths.js');
    const path = insecureCredentialsFile(ctx.env);
    // Mode bits and uids mean nothing on Windows (ACLs decide): %LOCALAPPDATA% is the user's own.
    if (process.platform === 'win32') {
      return existsSync(path)
        ? { check: 'keychain', status: 'ok', detail: `not used: the credential is in ${path} (--insecure-storage, in your Windows account's folder on this PC)` }
        : { check: 'keychain', status: 'fail', detail: `the credential file ${path} does not exist`, fix: 'store the credential again with msgctl auth set-key --insecure-storage' };
    }
    // The very check the file store makes before it reads the file (util/own-files.ts).
    const { openOwn, UnsafeFileError } = await import('../util/own-files.js');
    let fd: number | null;
    try {
      fd = openOwn(path, 'read', 'the credential file', { secret: true });
    } catch (err) {
      if (!(err instanceof UnsafeFileError)) throw err;
      return { check: 'keychain', status: 'fail', detail: err.message.replace(/\.$/, ''), fix: `chmod 600 ${path} (and make it yours), or store the credential again with msgctl auth set-key` };
    }
    if (fd === null) {
      return { check: 'keychain', status: 'fail', detail: `the credential file ${path} does not exist`, fix: 'store the credential again with msgctl auth set-key --insecure-storage' };
    }
    closeSync(fd);
    return { check: 'keychain', status: 'ok', detail: `not used: the credential is in ${path} (--insecure-storage, readable only by you)` };
  }
  const [{ openSecretStore }, { SecretStoreUnavailableError }] = await Promise.all([import('../auth/secret-store.js'), import('../auth/keychain-store.js')]);
  const store = openSecretStore('keychain', ctx.env, { timeoutMs: 3_000, terminal: false });
  try {
    await store.get('__msgctl-doctor__');
    return { check: 'keychain', status: 'ok', detail: `${store.describe()} answers${storage === 'keychain' ? ' (the credential is stored there)' : ''}` };
  } catch (err) {
    if (!(err instanceof SecretStoreUnavailableError)) throw err;
    const fix = 'for cron and scripts set MSGCTL_API_KEY, or store the credential with --insecure-storage (a file readable only by you)';
    return { check: 'keychain', status: storage === 'keychain' ? 'fail' : 'warn', detail: `no usable OS keychain: ${err.reason}`, fix };
  }
}

interface Reachability {
  result: CheckResult;
  /** The service's Date header and the local time in the middle of the request. */
  clock?: { service: number; local: number };
}

/**
 * The base URL answers at all, through the proxy and CAs configured: one
 * request without a credential (any HTTP status means reachable). Its Date
 * header gives the clock check.
 */
export async function networkCheck(ctx: Context): Promise<Reachability> {
  const check = 'network';
  const configured = await ctx.configuredBaseUrl();
  if (!configured) return { result: { check, status: 'fail', detail: 'no base URL is configured', fix: 'msgctl config set base_url https://…/v1, --base-url, or MSGCTL_BASE_URL (for the sandbox: msgctl sandbox --write-profile)' } };
  const [{ checkBaseUrl, proxyFor }, transport] = await Promise.all([import('../api/transport.js'), ctx.services.transport()]);
  let base: URL;
  try {
    base = checkBaseUrl(configured, true);
  } catch (err) {
    return { result: { check, status: 'fail', detail: (err as Error).message, fix: 'msgctl config set base_url https://…/v1' } };
  }
  const url = new URL('organization', base);
  const proxy = proxyFor(url, ctx.env);
  const route = proxy ? `through the proxy ${shownUrl(proxy)}` : 'directly';
  const started = Date.now();
  try {
    const response = await transport.request(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.min(REQUEST_TIMEOUT_MS, ctx.opts.timeout * 1000))]),
    });
    response.body.resume();
    const local = (started + Date.now()) / 2;
    const date = Date.parse(String(response.headers.date ?? ''));
    return {
      result: { check, status: 'ok', detail: `${shownUrl(base.href)} answers (HTTP ${response.status}) ${route}` },
      clock: Number.isNaN(date) ? undefined : { service: date, local },
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).name;
    return { result: { check, status: 'fail', detail: `${shownUrl(base.href)} cannot be reached ${route}: ${code} ${(err as Error).message}`.trim(), fix: networkFix(code, base, proxy) } };
  }
}

function networkFix(code: string, base: URL, proxy: string | null): string {
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return 'the TLS certificate is not trusted: if a clinic proxy inspects TLS, point NODE_EXTRA_CA_CERTS at its CA certificate (a PEM file)';
  }
  if (code === 'ECONNREFUSED' && /^(127\.|localhost$|\[::1\]$)/.test(base.hostname)) return 'nothing listens there: start the sandbox (msgctl sandbox --write-profile)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the name ${base.hostname} does not resolve: check the base URL (msgctl config get base_url) and DNS`;
  if (code === 'TimeoutError' || code === 'ETIMEDOUT') return proxy ? 'no answer in time: check the proxy (HTTPS_PROXY, NO_PROXY)' : 'no answer in time: a firewall may need HTTPS_PROXY';
  return 'check the base URL, the network and the proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)';
}

/** `answered`: the network check got an answer (a missing clock is then a missing Date header). */
export function clockCheck(clock: Reachability['clock'], answered = true): CheckResult {
  if (!clock) return { check: 'clock', status: 'skip', detail: answered ? 'the service sent no Date header to compare with' : 'nothing to compare with: the service could not be reached (network, above)' };
  // The Date header has whole seconds.
  const skew = Math.round((clock.local - clock.service) / 1000);
  const detail = skew === 0 ? 'this machine agrees with the service to the second' : `this machine is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the service`;
  const status = Math.abs(skew) > SKEW_FAIL_S ? 'fail' : Math.abs(skew) > SKEW_WARN_S ? 'warn' : 'ok';
  return { check: 'clock', status, detail, fix: status === 'ok' ? undefined : 'turn on network time (timedatectl set-ntp true; on macOS and Windows, "set time automatically")' };
}

/**
 * The credential's source and whether the service takes it. Names the source
 * (MSGCTL_API_KEY, the keychain, the file), and the way out that can work for it.
 */
export async function credentialCheck(ctx: Context): Promise<CheckResult> {
  const check = 'credential';
  const resolved = await ctx.credential().catch((err: Error) => err);
  if (resolved instanceof Error) {
    // A profile that does not exist: the profiles there are, and how to make it (its own hints).
    // A damaged stored credential: store it again (its own hints too).
    const { CliError } = await import('../errors.js');
    if (resolved instanceof CliError && resolved.hints.length) return { check, status: 'fail', detail: resolved.message, fix: resolved.hints.join(' ') };
    return { check, status: 'fail', detail: resolved.message, fix: 'set MSGCTL_API_KEY, or store the credential again with --insecure-storage' };
  }
  const name = await ctx.profileName();
  if (!resolved) {
    const { otherProfilesHint } = await import('../config/unknown-profile.js');
    const others = otherProfilesHint(name, await ctx.config());
    return { check, status: 'fail', detail: `profile "${name}" has no credential`, fix: [...others, 'msgctl auth set-key, msgctl login, or MSGCTL_API_KEY'].join(' ') };
  }
  const what = resolved.credential.kind === 'oauth' ? 'OAuth access token' : 'API key';
  const from = resolved.source.startsWith('env:') ? resolved.source.slice(4) : resolved.source === 'file' ? 'the credentials file' : 'the OS keychain';
  if (!(await ctx.configuredBaseUrl())) return { check, status: 'skip', detail: `${what} from ${from}: not checked, no base URL is configured` };
  ctx.opts.retries = 0;
  ctx.opts.timeout = Math.min(ctx.opts.timeout, REQUEST_TIMEOUT_MS / 1000);
  const [client, { ApiError, NetworkError }] = await Promise.all([ctx.client(), import('../api/errors.js')]);
  try {
    if (resolved.credential.kind === 'oauth') {
      const me = await client.get('/me', undefined, ctx.signal, PROFILE);
      return { check, status: 'ok', detail: `${what} from ${from} works: ${me.user.name}, ${me.organization.name}` };
    }
    const org = await client.get('/organization', undefined, ctx.signal, ORGANIZATION);
    return { check, status: 'ok', detail: `${what} from ${from} works: ${org.name}` };
  } catch (err) {
    if (err instanceof NetworkError) return { check, status: 'skip', detail: `${what} from ${from}: not checked, the service cannot be reached` };
    if (!(err instanceof ApiError)) throw err;
    const variable = resolved.source.startsWith('env:') ? resolved.source.slice(4) : null;
    const { clearVariablePhrase } = await import('../output/platform-words.js');
    const fix = variable
      ? `fix ${variable} or ${clearVariablePhrase(variable)}: it overrides the credential stored for profile "${name}", so auth set-key or login would not change what is sent`
      : resolved.credential.kind === 'oauth'
        ? 'log in again: msgctl login'
        : 'store a working key: msgctl auth set-key';
    return { check, status: 'fail', detail: `${what} from ${from} was refused (HTTP ${err.status} ${err.code})`, fix };
  }
}

/**
 * The config folder (config.json, credentials) and the state folder (batch
 * journals) must pass the very check msgctl makes before it uses them
 * (bin/own-path.js checkFolder, through util/own-files.ts): whoever can write
 * there, or to a folder above, can change where messages go or which rows count as sent.
 */
export async function foldersCheck(ctx: Context): Promise<CheckResult> {
  const check = 'folders';
  if (process.platform === 'win32') return { check, status: 'skip', detail: '%APPDATA% and %LOCALAPPDATA% are your own' };
  const { configDir, stateDir } = await import('../config/paths.js');
  const { checkFolder } = await import('../util/own-files.js');
  const problems: string[] = [];
  const fixes: string[] = [];
  const seen: string[] = [];
  for (const dir of [configDir(ctx.env), stateDir(ctx.env), join(stateDir(ctx.env), 'journals')]) {
    if (!existsSync(dir)) continue;
    seen.push(dir);
    const checked = checkFolder(dir);
    if ('problem' in checked) {
      problems.push(checked.problem);
      fixes.push(`chmod go-w ${dir} and any folder above it that others can write to (each must be yours or root's)`);
    }
  }
  if (problems.length > 0) return { check, status: 'fail', detail: problems.join('; '), fix: fixes.join('; ') };
  return { check, status: 'ok', detail: seen.length ? `${seen.join(', ')}: yours, writable only by you` : 'none yet (created, yours only, when first needed)' };
}
