/**
 * What a light command must not load (start-up cost, issue 15): the built binary
 * runs under a module-load trace (test/helpers/load-trace.mjs), and the source
 * maps of the dist files it loaded name every src/ file it evaluated. A later
 * static import of the sandbox, CSV, prompts, the keychain or undici on these
 * paths fails here, whatever the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registerHooks } from 'node:module';
import { binPath, msgctl, sandboxEnv } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const tracer = pathToFileURL(fileURLToPath(new URL('../helpers/load-trace.mjs', import.meta.url))).href;

interface Loaded {
  /** src/… files bundled into the dist files that were loaded. */
  sources: string[];
  /** npm packages loaded from node_modules (outside the bundle). */
  packages: string[];
}

async function traced(args: string[], extraEnv: Record<string, string> = {}): Promise<Loaded> {
  const dir = mkdtempSync(join(tmpdir(), 'msgctl-trace-'));
  const file = join(dir, 'trace.jsonl');
  const dist = join(dirname(binPath()), '..', 'dist') + sep;
  try {
    const r = await msgctl(args, { env: sandboxEnv(sandbox.current, { NODE_OPTIONS: `--import=${tracer}`, MSGCTL_LOAD_TRACE: file, ...extraEnv }) });
    expect(r.exitCode, r.stderr).toBe(0);
    const urls = readFileSync(file, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { url: string }).url);
    const sources = new Set<string>();
    const packages = new Set<string>();
    for (const url of urls) {
      const path = fileURLToPath(url);
      // The test build lives under node_modules/.cache: look for dist/ first.
      if (path.startsWith(dist)) {
        let map: { sources: string[] };
        try {
          map = JSON.parse(readFileSync(`${path}.map`, 'utf8'));
        } catch {
          continue; // dist/root-help.js and friends: generated, no map
        }
        for (const source of map.sources) {
          const at = source.replace(/\\/g, '/').lastIndexOf('src/');
          if (at >= 0) sources.add(source.replace(/\\/g, '/').slice(at));
          else if (source.includes('node_modules/')) packages.add(/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)![1]!);
        }
      } else {
        const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path);
        if (pkg) packages.add(pkg[1]!.replace(/\\/g, '/'));
      }
    }
    return { sources: [...sources].sort(), packages: [...packages].sort() };
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
];
const HEAVY_PACKAGES = ['undici', 'fastify', 'csv-parse', '@inquirer/prompts', '@napi-rs/keyring', 'libphonenumber-js', 'cli-table3', 'cli-progress', 'open'];

function expectLight(loaded: Loaded) {
  expect(loaded.sources).toContain('src/cli/api/client.ts'); // the trace works: it saw the command's own code
  for (const heavy of HEAVY_SOURCES) expect(loaded.sources.filter((s) => heavy.test(s))).toEqual([]);
  expect(loaded.packages.filter((p) => HEAVY_PACKAGES.includes(p))).toEqual([]);
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

  it('send --dry-run to a North American number: no phone metadata, no HTTP client at all', async () => {
    const loaded = await traced(['send', '--dry-run', '--to', '(212) 555-0100', 'Your results are ready.']);
    expect(loaded.sources).toContain('src/cli/send/build-request.ts');
    const httpClient = /^src\/cli\/api\/(client|http|transport|node-transport|proxy-transport)\.ts$/;
    expect(loaded.sources.filter((s) => httpClient.test(s) || HEAVY_SOURCES.some((h) => h.test(s)))).toEqual([]);
    expect(loaded.packages.filter((p) => HEAVY_PACKAGES.includes(p))).toEqual([]);
  });
});
