/**
 * Issue 32, item 5: every message and hint that names a file mode, a shell
 * command or a signal says the platform's own thing, checked as a table over
 * process.platform values (faked, as the suite does elsewhere), each message
 * made by the code that prints it; help text, built once and read on every OS,
 * names both; and each Windows error msgctl explains says what
 * docs/platforms.md says it does (the 1312 case).
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { explainKeychainFailure } from '../../src/cli/auth/keychain-store.js';
import { openSecretStore } from '../../src/cli/auth/secret-store.js';
import { insecureCredentialsFile } from '../../src/cli/config/paths.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { renderError } from '../../src/cli/output/render-error.js';
import { unreadable } from '../../src/cli/util/input-file.js';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();
const real = Object.getOwnPropertyDescriptor(process, 'platform')!;
afterEach(() => Object.defineProperty(process, 'platform', real));
const fake = (platform: NodeJS.Platform) => Object.defineProperty(process, 'platform', { ...real, value: platform });

/** Words that are a POSIX shell's, a POSIX file mode, or a POSIX signal name. */
const POSIX_WORDS = [/\bexport [A-Z_]+/, /`unset [A-Z_]+`/, /\bchmod\b/, /\b0600\b/, /\bSIGTERM\b/, /\bSIGHUP\b/, /\brm "/];
/** Words that are PowerShell's, cmd's or Windows'. */
const WINDOWS_WORDS = [/\$env:/, /Remove-Item/, /\bdel "/, /console window/, /Ctrl-Break/, /Windows account/];

/** What msgctl says, where the words depend on the OS, each from the code that says it. */
async function messagesOn(platform: NodeJS.Platform): Promise<Record<string, string>> {
  fake(platform);
  const said: Record<string, string> = {};
  const base = sandbox.current.baseUrl;

  // A sandbox profile with no credential (logged out): the hint to get its key back.
  const loggedOut = isolatedEnv();
  await mkdir(join(loggedOut.XDG_CONFIG_HOME!, 'msgctl'), { recursive: true });
  await writeFile(join(loggedOut.XDG_CONFIG_HOME!, 'msgctl', 'config.json'), JSON.stringify({ profiles: { sandbox: { base_url: base } } }));
  said['no sandbox key'] = (await msgctl(['--profile', 'sandbox', 'org'], { env: loggedOut })).stderr;
  // `msgctl sandbox` without --write-profile: the tip on how to use it.
  // Stopped once it has said everything it says at start (its last line), not after a fixed time a loaded machine may need.
  const started = new AbortController();
  let startText = '';
  const watchStart = (stream: 'stdout' | 'stderr', text: string) => {
    if (stream === 'stderr' && (startText += text).includes('Ctrl-C to stop')) started.abort(Object.assign(new Error('Interrupted'), { name: 'AbortError' }));
  };
  said['sandbox tip'] = (await msgctl(['sandbox', '--port', '0'], { env: isolatedEnv(), signal: started.signal, onWrite: watchStart })).stderr;
  // A key from the environment that the service refuses: how to stop using the variable.
  const refusedEnv = sandboxEnv(sandbox.current, { MSGCTL_API_KEY: 'sk_test_refused' });
  said['auth status, key refused'] = (await msgctl(['auth', 'status'], { env: refusedEnv })).stderr;
  said['org, key refused'] = (await msgctl(['org'], { env: refusedEnv })).stderr;
  said['me with an API key'] = (await msgctl(['me'], { env: sandboxEnv(sandbox.current) })).stderr;

  // Stopped by a signal.
  for (const received of ['SIGTERM', 'SIGHUP', ...(platform === 'win32' ? ['SIGBREAK'] : [])]) {
    let text = '';
    const code = renderError(Object.assign(new Error('Terminated'), { name: 'AbortError', signal: 'SIGTERM', received }), {
      stderr: { write: (t: string) => ((text += t), true) } as never,
      json: true,
      verbose: false,
    });
    expect(code).toBe(ExitCode.Terminated);
    said[`stopped by ${received}`] = text;
  }

  // The --insecure-storage file: where it is, and a damaged one.
  const home = await mkdtemp(join(tmpdir(), 'msgctl-words-'));
  try {
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'cfg') };
    said['file store'] = openSecretStore('file', env).describe();
    await mkdir(join(home, 'cfg', 'msgctl'), { recursive: true });
    await writeFile(insecureCredentialsFile(env), 'not json', { mode: 0o600 });
    const err = (await openSecretStore('file', env).get('x').catch((e: unknown) => e)) as { message: string; hints: string[] };
    said['damaged file store'] = [err.message, ...err.hints].join('\n');
    // doctor on a profile whose credential is in that file.
    const config = { profiles: { clinic: { base_url: base, credential: { kind: 'api_key', storage: 'file' } } } };
    await writeFile(join(home, 'cfg', 'msgctl', 'config.json'), JSON.stringify(config));
    await writeFile(insecureCredentialsFile(env), '{"clinic":"sk_test_x"}');
    await chmod(insecureCredentialsFile(env), 0o644); // readable by others: doctor fails it, saying how to fix it
    const doctor = await msgctl(['--profile', 'clinic', 'doctor', '--json'], { env: isolatedEnv({ HOME: home, XDG_CONFIG_HOME: join(home, 'cfg') }) });
    said['doctor, credentials file'] = doctor.stdout.split('\n').find((l) => l.includes('"keychain"')) ?? doctor.stdout;
    const envDoctor = await msgctl(['doctor', '--json'], { env: refusedEnv });
    said['doctor, key refused'] = envDoctor.stdout.split('\n').find((l) => l.includes('"credential"')) ?? envDoctor.stdout;
  } finally {
    await rm(home, { recursive: true, force: true });
  }

  said['input file held'] = [unreadable('--csv a.csv', 'EPERM', 'EPERM'), unreadable('--csv a.csv', 'EBUSY', 'EBUSY')].map((e) => [e.message, ...e.hints].join(' ')).join('\n');
  return said;
}

describe('messages and hints say the platform\'s own thing', () => {
  it('on Windows: PowerShell and Windows words, no POSIX ones', async () => {
    const said = await messagesOn('win32');
    for (const [what, text] of Object.entries(said)) {
      for (const posix of POSIX_WORDS) expect(text, `${what}: ${text}`).not.toMatch(posix);
    }
    expect(said['no sandbox key']).toContain("$env:MSGCTL_API_KEY");
    expect(said['sandbox tip']).toContain('set $env:MSGCTL_BASE_URL and $env:MSGCTL_API_KEY');
    // The start-up banner fits 80 columns: no key or secret is broken across lines.
    for (const line of said['sandbox tip']!.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(said['sandbox tip']).toMatch(/^ {2}client secret {4}mcs_test_[0-9a-f]{32}$/m);
    for (const what of ['auth status, key refused', 'org, key refused', 'me with an API key', 'doctor, key refused']) expect(said[what]).toContain('Remove-Item Env:MSGCTL_API_KEY');
    expect(said['stopped by SIGHUP']).toContain('Terminated (the console window was closed).');
    expect(said['stopped by SIGBREAK']).toContain('Terminated (Ctrl-Break).');
    expect(said['file store']).toContain("your Windows account's, on this PC only");
    expect(said['damaged file store']).toMatch(/del "/);
    expect(said['doctor, credentials file']).toContain('"status":"ok"');
    expect(said['input file held']).toContain('Excel');
  });

  it.each(['linux', 'darwin'] as const)('on %s: POSIX words, no Windows ones', async (platform) => {
    const said = await messagesOn(platform);
    for (const [what, text] of Object.entries(said)) {
      for (const windows of WINDOWS_WORDS) expect(text, `${what}: ${text}`).not.toMatch(windows);
    }
    expect(said['no sandbox key']).toContain('export MSGCTL_API_KEY');
    expect(said['sandbox tip']).toContain('export MSGCTL_BASE_URL and MSGCTL_API_KEY');
    // The start-up banner fits 80 columns: no key or secret is broken across lines.
    for (const line of said['sandbox tip']!.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(said['sandbox tip']).toMatch(/^ {2}client secret {4}mcs_test_[0-9a-f]{32}$/m);
    for (const what of ['auth status, key refused', 'org, key refused', 'me with an API key', 'doctor, key refused']) expect(said[what]).toContain('`unset MSGCTL_API_KEY`');
    expect(said['stopped by SIGTERM']).toContain('Terminated (SIGTERM).');
    expect(said['stopped by SIGHUP']).toContain('Terminated (SIGHUP: the terminal or ssh session closed).');
    expect(said['file store']).toContain('(0600)');
    expect(said['damaged file store']).toMatch(/rm "/);
    expect(said['doctor, credentials file']).toMatch(/chmod 600/);
    expect(said['input file held']).toContain('permission denied');
  });
});

describe('help text, built once for every OS', () => {
  const helpOf = async (args: string[]) => (await msgctl([...args, '--help'], { env: isolatedEnv() })).stdout;
  const topics = ['exit-codes', 'environment'];
  const commands = [['auth'], ['auth', 'set-key'], ['login'], ['completion']];

  it('is the same on every OS, and names the Windows form wherever it names a POSIX one', async () => {
    const texts: Record<string, string[]> = {};
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      fake(platform);
      texts[platform] = [
        ...(await Promise.all(commands.map(helpOf))),
        ...(await Promise.all(topics.map(async (t) => (await msgctl(['help', t], { env: isolatedEnv() })).stdout))),
      ];
    }
    expect(texts.win32).toEqual(texts.linux);
    expect(texts.darwin).toEqual(texts.linux);
    // As one line: the help is wrapped to 80 columns.
    const all = texts.linux!.join('\n').replace(/\s+/g, ' ');
    expect(all).toMatch(/0600; on Windows in %LOCALAPPDATA%/);
    expect(all).toMatch(/\$Key \| msgctl auth set-key .*# PowerShell/);
    expect(all).toMatch(/SIGTERM, or SIGHUP .*on Windows, Ctrl-Break or closing the console window/);
    expect(all).toMatch(/\$env:MSGCTL_API_KEY = Get-Content .*# PowerShell/);
    expect(all).toMatch(/\$LASTEXITCODE/);
    // PowerShell's profile: created when missing (notepad cannot save into a folder that does not exist).
    expect(all).toContain('if (!(Test-Path $PROFILE)) { New-Item -ItemType File -Force $PROFILE | Out-Null }'.replace(/\s+/g, ' '));
    expect(all).not.toContain('notepad $PROFILE');
  });
});

describe('the Windows errors msgctl explains', () => {
  /** The raw error each row of docs/platforms.md's table is about, and what msgctl makes of it. */
  const explain: Record<string, () => string> = {
    '1312': () => explainKeychainFailure('A specified logon session does not exist. It may already have been terminated. (os error 1312)', 'win32'),
    '2560': () => explainKeychainFailure("Attribute 'password' is longer than platform limit of 2560 chars", 'win32'),
    EBUSY: () => unreadable('--csv a.csv', 'EBUSY', 'EBUSY: resource busy or locked', 'win32').message,
  };

  it('say what docs/platforms.md says they say', async () => {
    const doc = await readFile(new URL('../../docs/platforms.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('The Windows errors msgctl explains'), doc.indexOf('## How this is tested'));
    const rows = section.split('\n').filter((l) => /^\| [^-]/.test(l) && !l.startsWith('| Windows error'));
    const checked: string[] = [];
    for (const row of rows) {
      const [error, says] = row.split(' | ');
      const key = Object.keys(explain).find((k) => error!.includes(k));
      expect(key, `a row msgctl does not explain: ${row}`).toBeDefined();
      const quoted = /`([^`]+)`/.exec(says!)![1]!;
      expect(explain[key!]!()).toContain(quoted);
      checked.push(key!);
    }
    expect(checked.sort()).toEqual(Object.keys(explain).sort());
  });

  it('1312: a task without a stored password has no Credential Manager, as the docs say, not the other way round', () => {
    const said = explain['1312']!();
    expect(said).toContain('with "Do not store password" checked');
    expect(said).not.toContain('without "Do not store password"');
  });
});
