// Bundles src/ into dist/ with esbuild. Type checking is `npm run typecheck`
// (tsc); esbuild only strips types.
//
// The CLI is one CommonJS file, dist/cli.cjs (start-up, issue 15). Split ESM
// chunks cost every command a module job, a resolution and a file read per
// chunk (~25 of ~90 ms for `msgctl org`); one CommonJS file is one read and one
// (cached) compile. It stays lazy where it matters: esbuild wraps every module
// that is reached through `await import()` in an init function that runs on
// first use, and npm dependencies stay outside the bundle as `require()` calls
// inside those functions, so CSV, prompts, the keychain or the proxy agent load
// only when a command needs them. The sandbox is a separate ESM bundle under
// dist/sandbox/, loaded only by `msgctl sandbox`: it shares no classes with the
// CLI (npm run lint:deps), so two bundles cannot split an `instanceof`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// `--outdir DIR` lets test runs build into their own folder, so parallel runs never race on dist/.
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag > 0 ? process.argv[outdirFlag + 1] : 'dist';
await rm(outdir, { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  // Dependencies stay external (installed beside dist/), except two: commander is
  // needed on every start, and bundling it saves Node's resolution of its files;
  // uuid's CommonJS entry requires all of its twenty files (every version, ~5 ms
  // at the start of each batch) where msgctl uses v5 and parse.
  external: Object.keys(pkg.dependencies).filter((name) => name !== 'commander' && name !== 'uuid'),
  sourcemap: 'linked',
  define: { __MSGCTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  minifySyntax: true,
  minifyWhitespace: true,
};

/** 16 hex digits, replaced by stampBuildId once the bundle's text is final. */
const BUILD_ID_PLACEHOLDER = '0'.repeat(16);

const SANDBOX_ENTRY = /[\\/]sandbox[\\/]entry\.(js|ts)$/;

const [cliBuild] = await Promise.all([
  build({
    ...common,
    entryPoints: { cli: 'src/cli/cli.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    metafile: true,
    // The CLI's two uses of import.meta.url (createRequire for lazily loaded packages) in CommonJS.
    define: { ...common.define, 'import.meta.url': '__msgctlModuleUrl' },
    // `Import`: see routeDynamicImports below. "use strict" first: the directive below the
    // banner would be a plain string, leaving the whole bundle in sloppy mode. The comment
    // before it holds the build id (stampBuildId below).
    banner: {
      js: `/*msgctl-build:${BUILD_ID_PLACEHOLDER}*/'use strict'; const __msgctlModuleUrl = require('node:url').pathToFileURL(__filename).href, Import = (specifier) => require('./dynamic-import.cjs')(specifier);`,
    },
    plugins: [
      {
        name: 'msgctl-cli',
        setup(b) {
          // `msgctl sandbox` imports the sandbox's own bundle, never a copy inlined here.
          b.onResolve({ filter: SANDBOX_ENTRY }, (args) =>
            /[\\/]src[\\/]cli[\\/]/.test(args.importer) ? { path: './sandbox/entry.js', external: true } : undefined,
          );
          // commander requires node:child_process at load time only for external subcommands (see the shim).
          b.onResolve({ filter: /^node:child_process$/ }, (args) =>
            /node_modules[\\/]commander[\\/]/.test(args.importer)
              ? { path: fileURLToPath(new URL('./shims/lazy-child-process.cjs', import.meta.url)) }
              : undefined,
          );
        },
      },
    ],
  }),
  // `version` is its own tiny entry so `msgctl --version` never loads the command tree.
  build({ ...common, entryPoints: { version: 'src/cli/version.ts' }, outdir, format: 'esm' }),
  build({
    ...common,
    entryPoints: { entry: 'src/sandbox/entry.ts' },
    outdir: resolve(outdir, 'sandbox'),
    splitting: true,
    format: 'esm',
    chunkNames: 'chunks/[name]-[hash]',
    // Bundled CommonJS calls require() for Node built-ins; give the ESM chunks one.
    banner: { js: "import { createRequire as __msgctlCreateRequire } from 'node:module'; const require = __msgctlCreateRequire(import.meta.url);" },
  }),
]);
await routeDynamicImports(resolve(outdir, 'cli.cjs'), cliBuild.metafile);
await stampBuildId(resolve(outdir, 'cli.cjs'));

/**
 * The bundle's first line names its build: a hash of its text, in place of the
 * placeholder (same length, so the source map holds). bin/code-cache.js keys the code it
 * keeps by it: V8 takes a code cache for any source of the same length, and npm installs
 * every file with the same modification time, so a new release of the same size would
 * otherwise meet the compiled code of the old one.
 */
async function stampBuildId(file) {
  const text = await readFile(file, 'utf8');
  const marker = `/*msgctl-build:${BUILD_ID_PLACEHOLDER}*/`;
  if (!text.startsWith(marker)) throw new Error(`${file}: the banner does not start with the build id placeholder`);
  const id = createHash('sha256').update(text).digest('hex').slice(0, BUILD_ID_PLACEHOLDER.length);
  await writeFile(file, `/*msgctl-build:${id}*/${text.slice(marker.length)}`);
}

/**
 * bin/code-cache.js runs dist/cli.cjs as a vm.Script (to keep the code V8 compiled
 * for a command), and a vm.Script may not call import() without Node's experimental
 * vm-modules flag. So each import() of the bundle (the sandbox's bundle, ESM-only
 * packages, a few built-ins) becomes Import(), the banner's function, which calls
 * import() from dist/dynamic-import.cjs, a module Node compiles itself; specifiers
 * resolve from dist/ as before. Same length as `import`, so the source map holds.
 */
async function routeDynamicImports(file, metafile) {
  const text = await readFile(file, 'utf8');
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint === 'src/cli/cli.ts');
  const expected = output.imports.filter((i) => i.kind === 'dynamic-import' && i.external).length;
  if (/\bImport\s*[(=]/.test(text.replace(/^[^\n]*\n/, ''))) throw new Error(`${file}: the bundle already has an identifier Import`);
  let count = 0;
  const routed = text.replace(/\bimport\((?=")/g, () => (count++, 'Import('));
  if (count !== expected || /\bimport\(/.test(routed)) {
    throw new Error(`${file}: routed ${count} import() calls, the metafile lists ${expected} external dynamic imports`);
  }
  await writeFile(file, routed);
  await writeFile(
    resolve(outdir, 'dynamic-import.cjs'),
    '// import() for dist/cli.cjs, which may run as a vm.Script (see routeDynamicImports in scripts/build.mjs).\n' +
      'module.exports = (specifier) => import(specifier);\n',
  );
}

// The worker thread of `send --csv` and `imports create` (src/cli/batch-thread.ts): the same
// bundle, entered through batchThreadMain, with the main thread's compile cache.
await writeFile(
  resolve(outdir, 'batch-thread.cjs'),
  "'use strict';\n" +
    "// The worker thread of `send --csv` and `imports create` (src/cli/batch-thread.ts).\n" +
    "const { workerData } = require('node:worker_threads');\n" +
    "if (workerData.compileCache) require('node:module').enableCompileCache?.(workerData.compileCache);\n" +
    "require('./cli.cjs').batchThreadMain();\n",
);

// The root help (`msgctl --help`), rendered now by the real command tree, so the
// bin can print it without loading commander at all (start-up; see bin/msgctl.js).
// test/e2e/root-help.test.ts holds it equal to what the live tree prints.
const { run, commandPaths } = createRequire(import.meta.url)(resolve(outdir, 'cli.cjs'));
async function helpOf(path) {
  let text = '';
  const sink = { write: (chunk) => ((text += chunk), true), once() {}, isTTY: false };
  await run([...path, '--help'], { io: { stdout: sink, stderr: sink, stdin: process.stdin }, env: {} });
  return text;
}
await writeFile(resolve(outdir, 'root-help.js'), `export const ROOT_HELP = ${JSON.stringify(await helpOf([]))};\n`);

// Every command's help, one text file each (dist/help/patients.list.txt): `msgctl patients list
// --help` is read from there by the bin, without loading the command tree (start-up; see
// bin/msgctl.js). test/e2e/root-help.test.ts holds each equal to what the live tree prints.
await mkdir(resolve(outdir, 'help'));
// Only names the bin looks up (lower-case words); a hidden one such as `__reference` keeps the live path.
for (const path of commandPaths().filter((p) => p.every((word) => /^[a-z][a-z0-9-]*$/.test(word)))) {
  await writeFile(resolve(outdir, 'help', `${path.join('.')}.txt`), await helpOf(path));
}
