/**
 * What a light command must not load (start-up cost, issue 15). The built binary
 * runs under a module-load trace (test/helpers/load-trace.mjs) and V8 coverage.
 * The CLI is one bundle, dist/cli.cjs, in which esbuild wraps every lazily
 * imported module in an init function named by its source path
 * (`"src/cli/csv/read.ts"()`): a module was evaluated if its init function ran,
 * and the modules with no such function (the entry's static imports) always are.
 * Other files it loaded (the sandbox's bundle, npm packages) come from the trace.
 * A later static import of the sandbox, CSV, prompts, the keychain or undici on
 * these paths fails here, whatever the machine's speed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registerHooks } from 'node:module';
import { binPath, isolatedEnv, msgctl, sandboxEnv } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { startTlsTerminator } from '../../bench/lib/private-ca.mjs';
import { againAfterKeyringRestart } from '../helpers/keyring.js';

const sandbox = useSandbox();
const tracer = pathToFileURL(fileURLToPath(new URL('../helpers/load-trace.mjs', import.meta.url))).href;

interface Loaded {
  /** src/… files evaluated, from the bundle's init functions and the source maps of other dist files loaded. */
  sources: string[];
  /** npm packages loaded from node_modules (outside the bundle). */
  packages: string[];
  /** Node's own modules (`net`, `internal/fs/sync_write_stream`), loaded by the time the process exited. */
  builtins: string[];
}

/** `src/cli/api/client.ts` from a source-map entry or an init function's name, whatever the folder it was built in. */
function srcPath(source: string): string | null {
  const at = source.replace(/\\/g, '/').lastIndexOf('src/');
  return at >= 0 ? source.replace(/\\/g, '/').slice(at) : null;
}

interface FunctionCoverage {
  functionName: string;
  ranges: { count: number }[];
}

/** The src/ modules of dist/cli.cjs that were evaluated, read from V8 coverage of the run. */
function evaluatedInBundle(coverageDir: string, bundle: string): string[] {
  const bundleUrl = pathToFileURL(bundle).href;
  const scripts = readdirSync(coverageDir).flatMap(
    (name) => (JSON.parse(readFileSync(join(coverageDir, name), 'utf8')) as { result: { url: string; functions: FunctionCoverage[] }[] }).result,
  );
  // Node's loader names it by file URL; bin/code-cache.js runs it as a vm.Script named by path.
  const script = scripts.find((s) => s.url === bundleUrl || s.url === bundle);
  if (!script) return [];
  const wrapped = new Map<string, boolean>();
  for (const fn of script.functions) {
    const path = /^src\//.test(fn.functionName) ? fn.functionName : null;
    if (path) wrapped.set(path, (wrapped.get(path) ?? false) || fn.ranges[0]!.count > 0);
  }
  const map = JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as { sources: string[] };
  const inBundle = map.sources.map(srcPath).filter((p): p is string => p !== null);
  // No init function: a static import of the entry, evaluated whenever the bundle loads.
  return inBundle.filter((path) => wrapped.get(path) ?? true);
}

/** Where a traced command's stdio goes (see intoFiles for all but `pipes`, execa's). */
type Outputs = 'pipes' | 'shell pipes' | 'files' | 'files, stdin /dev/null';

/**
 * `args` with stdout and stderr opened on files (`files`: as a cron job's `> log 2>&1`, stdin an
 * ended pipe as cron gives it; `files, stdin /dev/null`: as a systemd timer, launchd or
 * `</dev/null` runs it), or into pipes as a shell makes them (`shell pipes`: `| cat`; Node's
 * child processes get sockets).
 */
async function intoFiles(args: string[], env: Record<string, string | undefined>, dir: string, outputs: Exclude<Outputs, 'pipes'>) {
  const shellPipes = outputs === 'shell pipes';
  const [stdout, stderr, status] = ['stdout', 'stderr', 'status'].map((name) => join(dir, name));
  const [out, err] = [openSync(stdout!, 'w'), openSync(stderr!, 'w')];
  try {
    const command = shellPipes
      ? spawn('sh', ['-c', '( ( "$0" "$@"; echo $? > "$STATUS" ) | cat >&3 ) 2>&1 | cat >&4', process.execPath, binPath(), ...args], {
          env: { ...env, STATUS: status } as NodeJS.ProcessEnv,
          stdio: ['pipe', 'ignore', 'ignore', out, err],
        })
      : spawn(process.execPath, [binPath(), ...args], { env: env as NodeJS.ProcessEnv, stdio: [outputs === 'files' ? 'pipe' : 'ignore', out, err] });
    command.stdin?.end();
    const [code] = (await once(command, 'close')) as [number];
    return { exitCode: shellPipes ? Number(readFileSync(status!, 'utf8')) : code, stderr: readFileSync(stderr!, 'utf8') };
  } finally {
    closeSync(out);
    closeSync(err);
  }
}

async function traced(args: string[], extraEnv: Record<string, string> = {}, outputs: Outputs = 'pipes'): Promise<Loaded> {
  const dir = mkdtempSync(join(tmpdir(), 'msgctl-trace-'));
  const file = join(dir, 'trace.jsonl');
  const coverage = join(dir, 'coverage');
  const dist = join(dirname(binPath()), '..', 'dist') + sep;
  try {
    const env = sandboxEnv(sandbox.current, { NODE_OPTIONS: `--import=${tracer}`, MSGCTL_LOAD_TRACE: file, NODE_V8_COVERAGE: coverage, ...extraEnv });
    const r = outputs === 'pipes' ? await msgctl(args, { env }) : await intoFiles(args, env, dir, outputs);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { url?: string; builtin?: string });
    const urls = lines.flatMap((line) => (line.url === undefined ? [] : [line.url]));
    const builtins = lines.flatMap((line) => (line.builtin === undefined ? [] : [line.builtin]));
    // The bundle itself is not in the trace when bin/code-cache.js runs it as a vm.Script: coverage tells.
    const sources = new Set<string>(evaluatedInBundle(coverage, `${dist}cli.cjs`));
    const packages = new Set<string>();
    for (const url of urls) {
      const path = fileURLToPath(url);
      // The test build lives under node_modules/.cache: look for dist/ first.
      if (path === `${dist}cli.cjs`) {
        continue; // read from coverage above
      } else if (path.startsWith(dist)) {
        let map: { sources: string[] };
        try {
          map = JSON.parse(readFileSync(`${path}.map`, 'utf8'));
        } catch {
          continue; // dist/root-help.js and friends: generated, no map
        }
        for (const source of map.sources) {
          const src = srcPath(source);
          if (src) sources.add(src);
          else if (source.includes('node_modules/')) packages.add(/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)![1]!);
        }
      } else {
        const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path);
        if (pkg) packages.add(pkg[1]!.replace(/\\/g, '/'));
      }
    }
    return { sources: [...sources].sort(), packages: [...packages].sort(), builtins };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Everything a light command has no use for. */
const HEAVY_SOURCES = [
  /^src\/sandbox\//,
  /^src\/cli\/csv\//,
  /^src\/cli\/batch\//,
  /^src\/cli\/imports\//,
  /^src\/cli\/auth\/(secret-store|keychain-store|file-store|login|oauth)/,
  /^src\/cli\/api\/proxy-transport\.ts$/,
  /^src\/cli\/output\/render-error\.ts$/,
  // --jq, --template, the pager, -o and progress load only when used (issue 28).
  /^src\/cli\/output\/(jq|template|record-format|json-fields|pager|file-output|progress|table-render|record-view|text-width)\.ts$/,
];
const HEAVY_PACKAGES = ['undici', 'fastify', 'csv-parse', '@inquirer/prompts', '@napi-rs/keyring', 'libphonenumber-js', 'cli-table3', 'cli-progress', 'open', 'jq-wasm', 'mustache', 'string-width'];
/**
 * Node's own modules a light command has no use for: Node's bundled undici (what `fetch`, or the
 * `WebSocket` getter of node:http's ESM facade, loads: ~40 ms), node:crypto (~8-15 ms; a single
 * send takes its key from /dev/urandom), worker threads (the batch thread), child processes (the
 * keychain helper), readline (prompts), zlib and perf_hooks.
 */
const HEAVY_BUILTINS = ['internal/deps/undici/undici', 'crypto', 'internal/crypto/random', 'worker_threads', 'child_process', 'readline', 'zlib', 'perf_hooks'];

/** `allowed`: Node modules the request itself needs (node:https loads node:crypto). */
function expectLight(loaded: Loaded, allowed: string[] = []) {
  expect(loaded.sources).toContain('src/cli/api/client.ts'); // the trace works: it saw the command's own code
  for (const heavy of HEAVY_SOURCES) expect(loaded.sources.filter((s) => heavy.test(s))).toEqual([]);
  expect(loaded.packages.filter((p) => HEAVY_PACKAGES.includes(p))).toEqual([]);
  expect(loaded.builtins).toContain('http'); // the list is there
  expect(loaded.builtins.filter((b) => HEAVY_BUILTINS.includes(b) && !allowed.includes(b))).toEqual([]);
}

describe.skipIf(typeof registerHooks !== 'function')('what light commands load', () => {
  it('org --json: no sandbox, CSV, prompts, keychain, phone metadata or undici', async () => {
    expectLight(await traced(['org', '--json']));
  });

  it('patients list --limit 1 --json: the same', async () => {
    expectLight(await traced(['patients', 'list', '--limit', '1', '--json']));
  });

  it('a proxy in the environment still loads no proxy agent for loopback (always direct)', async () => {
    expectLight(await traced(['org', '--json'], { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' }));
  });

  it('send (one message): the same', async () => {
    expectLight(await traced(['send', '--to', '(212) 555-0100', 'Your results are ready.']));
  });

  it('org --json and send over HTTPS (a TLS terminator, a private CA in NODE_EXTRA_CA_CERTS): tls, and still nothing heavy', async (context) => {
    if (spawnSync('openssl', ['version']).status !== 0) return context.skip('openssl is not installed (it makes the private CA)');
    const tls = await startTlsTerminator(Number(new URL(sandbox.current.baseUrl).port), process.env);
    try {
      const https = { MSGCTL_BASE_URL: sandbox.current.baseUrl.replace(/^http:\/\/[^/]+/, tls.origin), NODE_EXTRA_CA_CERTS: tls.ca };
      for (const args of [['org', '--json'], ['send', '--to', '(212) 555-0100', 'Your results are ready.']]) {
        const loaded = await traced(args, https);
        expect(loaded.builtins, args.join(' ')).toContain('tls'); // it did go through TLS
        expectLight(loaded, ['crypto', 'internal/crypto/random']); // node:https loads node:crypto itself
      }
    } finally {
      await tls.stop();
    }
  });

  it('send --dry-run to a North American number: no phone metadata, no HTTP client at all', async () => {
    const loaded = await traced(['send', '--dry-run', '--to', '(212) 555-0100', 'Your results are ready.']);
    expect(loaded.sources).toContain('src/cli/send/build-request.ts');
    const httpClient = /^src\/cli\/api\/(client|http|transport|node-transport|proxy-transport)\.ts$/;
    expect(loaded.sources.filter((s) => httpClient.test(s) || HEAVY_SOURCES.some((h) => h.test(s)))).toEqual([]);
    expect(loaded.packages.filter((p) => HEAVY_PACKAGES.includes(p))).toEqual([]);
    expect(loaded.builtins.filter((b) => HEAVY_BUILTINS.includes(b) || b === 'http')).toEqual([]);
  });

  it('send --dry-run into pipes and into files: writes them directly, never creating process.stdout or process.stderr (output/direct-output.ts)', async () => {
    // Creating either stream loads stream, and net for a pipe: ~4.5 ms of this command's start-up.
    // (A pipe is written through a non-blocking descriptor of its own: docs/security.md, promise 7.)
    for (const outputs of process.platform === 'linux' ? (['shell pipes', 'files'] as const) : (['files'] as const)) {
      const loaded = await traced(['send', '--dry-run', '--to', '(212) 555-0100', 'Your results are ready.'], {}, outputs);
      expect(loaded.builtins).toContain('fs'); // the list is there
      expect(loaded.builtins.filter((b) => ['net', 'tty', 'stream', 'internal/fs/sync_write_stream'].includes(b)), outputs).toEqual([]);
    }
  });
});

// Issue 30: the keychain path as light as the environment's. Linux, with a real Secret Service (CI).
describe.runIf(typeof registerHooks === 'function' && process.env.MSGCTL_TEST_KEYCHAIN === '1' && process.platform === 'linux')('a credential in the keychain', () => {
  it('org --json reads it in this process: no keyring addon, no second Node', { timeout: 120_000 }, () =>
    againAfterKeyringRestart(async () => {
      const env = isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl });
      const stored = await msgctl(['auth', 'set-key'], { env, input: sandbox.current.credentials.api_key });
      expect(stored.exitCode, stored.stderr).toBe(0);
      try {
        const keychainEnv = { MSGCTL_API_KEY: '', HOME: env.HOME!, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME!, XDG_STATE_HOME: env.XDG_STATE_HOME!, MSGCTL_KEYCHAIN_SERVICE: env.MSGCTL_KEYCHAIN_SERVICE! };
        const loaded = await traced(['org', '--json'], keychainEnv);
        expect(loaded.sources).toContain('src/cli/auth/secret-service-read.ts');
        expect(loaded.packages).not.toContain('@napi-rs/keyring');
        expect(loaded.builtins).not.toContain('child_process');
        // No more of Node than the same command with MSGCTL_API_KEY (node:crypto, fs/promises: milliseconds
        // each), but node:tty: isatty(0) and isatty(2) say whether a person could answer a keychain dialog
        // (secret-store.ts; ~0.3 ms, where asking process.stdin created a stream on fd 0).
        const beyond = (keychain: Loaded, envKey: Loaded, expected: string[]) => keychain.builtins.filter((b) => !envKey.builtins.includes(b) && !expected.includes(b));
        const isatty = ['tty', 'internal/tty'];
        expect(beyond(loaded, await traced(['org', '--json']), isatty)).toEqual([]);
        // The same with stdin on /dev/null (a systemd timer, launchd, `</dev/null`) and output to files,
        // where process.stdin was a file stream (internal/fs/streams and the modules behind it: 1.5-3 ms).
        // Node's stderr stream for a file is expected there: closing the bus connection runs net's
        // Socket._destroy, which reads process.stderr (leaving the socket open gained nothing
        // measurable: +0.5%, -1.2 to +1.2%, in 100 rounds of compare-revisions --keychain).
        const devNull = 'files, stdin /dev/null' as const;
        expect(beyond(await traced(['org', '--json'], keychainEnv, devNull), await traced(['org', '--json'], {}, devNull), [...isatty, 'internal/fs/sync_write_stream'])).toEqual([]);
      } finally {
        await msgctl(['logout'], { env });
      }
    }));
});

describe.skipIf(typeof registerHooks !== 'function')('the trace sees lazily loaded modules', () => {
  it('--jq loads jq-wasm, --template mustache, --json FIELDS neither (so their absence above means something)', async () => {
    const jq = await traced(['patients', 'list', '--limit', '1', '--jq', '.id']);
    expect(jq.packages).toContain('jq-wasm');
    expect(jq.sources).toContain('src/cli/output/jq.ts');
    expect(jq.packages).not.toContain('mustache');
    const template = await traced(['patients', 'list', '--limit', '1', '--template', '{{id}}']);
    expect(template.packages).toContain('mustache');
    expect(template.packages).not.toContain('jq-wasm');
    const fields = await traced(['patients', 'list', '--limit', '1', '--json', 'id']);
    expect(fields.sources).toContain('src/cli/output/json-fields.ts');
    expect(fields.packages.filter((p) => ['jq-wasm', 'mustache'].includes(p))).toEqual([]);
  });

  it('send --csv --dry-run evaluates the CSV and batch modules it needs (so their absence above means something)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-trace-csv-'));
    try {
      const csv = join(dir, 'reminders.csv');
      writeFileSync(csv, 'phone,first_name\n(212) 555-0100,Ada\n');
      const loaded = await traced(['send', '--csv', csv, '--template', 'Hi {first_name}', '--dry-run']);
      expect(loaded.sources).toContain('src/cli/csv/read.ts');
      expect(loaded.sources.some((s) => s.startsWith('src/cli/batch/'))).toBe(true);
      expect(loaded.packages).toContain('csv-parse');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
