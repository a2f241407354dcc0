// Bundles src/ into dist/ with esbuild. Type checking is tsc's job (`npm test` runs
// it first); esbuild only strips types.
//
// The CLI is one CommonJS file, dist/cli.cjs (start-up, issue 15). Split ESM
// chunks cost every command a module job, a resolution and a file read per
// chunk; one CommonJS file is one read and one (cached) compile. It stays lazy
// where it matters: esbuild wraps every module reached through `await import()`
// in an init function that runs on first use, and npm dependencies stay outside
// the bundle as `require()` calls inside those functions, so CSV, prompts, the
// keychain or the proxy agent load only when a command needs them. The bundle
// holds no `import()` at all (`supported: { 'dynamic-import': false }`: each
// becomes a require(), which loads ES modules too on Node 22.13+), so
// bin/code-cache.js can run it as a plain vm.Script. The sandbox is a separate
// ESM bundle under dist/sandbox/, loaded only by `msgctl sandbox`: it shares no
// classes with the CLI (the import rules), so two bundles cannot split an
// `instanceof`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// `--outdir DIR` lets test runs build into their own folder, so parallel runs never race on dist/.
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = resolve((outdirFlag > 0 && process.argv[outdirFlag + 1]) || 'dist');
// `--without MECHANISM` (repeatable) builds the CLI without one of its start-up mechanisms, for
// bench/mechanisms.mjs to measure what each gains: `direct-output` (Node's streams for stdout and
// stderr, output/direct-output.ts) or `lazy-modules` (every module of src/cli evaluated at start,
// so every npm package it uses loads too). Never for a release.
const without = new Set(process.argv.flatMap((a, i) => (process.argv[i - 1] === '--without' ? [a] : [])));
for (const name of without) if (name !== 'direct-output' && name !== 'lazy-modules') throw new Error(`--without ${name}: not a mechanism this build can leave out`);
await rm(outdir, { recursive: true, force: true });

/** @type {import('esbuild').BuildOptions} */
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

/** Every module of src/cli (for --without lazy-modules), as paths from the project's root. */
async function cliModules() {
  const files = await readdir('src/cli', { recursive: true });
  return files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => `src/cli/${f.replaceAll('\\', '/')}`).sort();
}

const SANDBOX_ENTRY = /[\\/]sandbox[\\/]entry\.(js|ts)$/;
/** The bundle's first bytes: a comment naming its build (see stampBuildId). */
const buildIdComment = (/** @type {string} */ id) => `/*msgctl-build:${id}*/`;
const BUILD_ID_PLACEHOLDER = '0'.repeat(16);

const [cliBuild] = await Promise.all([
  build({
    ...common,
    entryPoints: { cli: without.has('lazy-modules') ? 'msgctl:eager-cli' : 'src/cli/cli.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    supported: { 'dynamic-import': false },
    // Written below, once the build id is in.
    write: false,
    // The CLI's uses of import.meta.url (createRequire for lazily loaded packages) in CommonJS.
    define: { ...common.define, 'import.meta.url': '__msgctlModuleUrl', __MSGCTL_DIRECT_OUTPUT__: String(!without.has('direct-output')) },
    // The bundle is one function expression, Node's CommonJS wrapper, called at once: so require()
    // runs it as any CommonJS file, and bin/code-cache.js compiles the function alone from the text
    // as read (everything up to the footer's `\n})`), never a concatenated copy of it: a second
    // young 570 KB string cost a command a garbage collection (~2 ms; bench/README.md, History).
    // "use strict" first in its body: a directive below the banner would be a plain string,
    // leaving the whole bundle in sloppy mode.
    banner: {
      js: `${buildIdComment(BUILD_ID_PLACEHOLDER)}(function (exports, require, module, __filename, __dirname) {'use strict'; const __msgctlModuleUrl = require('node:url').pathToFileURL(__filename).href;`,
    },
    footer: { js: '\n}).call(this, exports, require, module, __filename, __dirname);' },
    plugins: [
      {
        name: 'msgctl-cli',
        setup(b) {
          // --without lazy-modules: an entry that imports every module of src/cli statically, so each
          // one's init function runs (and requires its packages) when the bundle loads.
          b.onResolve({ filter: /^msgctl:eager-cli$/ }, () => ({ path: 'eager-cli', namespace: 'msgctl' }));
          b.onLoad({ filter: /^eager-cli$/, namespace: 'msgctl' }, async () => ({
            resolveDir: resolve('.'),
            loader: 'ts',
            contents: [
              "export * from './src/cli/cli.ts';",
              ...(await cliModules()).map((file) => `import './${file}';`),
            ].join('\n'),
          }));
          // `msgctl sandbox` loads the sandbox's own bundle, never a copy inlined here.
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
  // `version` is its own tiny entry so `msgctl --version` never loads the command tree; `help-render`
  // wraps the prebuilt help to the terminal (bin/msgctl.js), also without it. `code-cache` is
  // bin/code-cache.js with bin/own-path.js inlined, which the bin imports on the way to the tree:
  // one ES module where there were two (each costs its own resolution, read, compile and link;
  // bench/README.md History, stop 51).
  build({
    ...common,
    entryPoints: { version: 'src/cli/version.ts', 'help-render': 'src/cli/help/render.ts', 'code-cache': 'bin/code-cache.js' },
    outdir,
    format: 'esm',
  }),
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
for (const file of cliBuild.outputFiles ?? []) {
  await mkdir(dirname(file.path), { recursive: true });
  await writeFile(file.path, file.path.endsWith('.cjs') ? stampBuildId(file.text) : file.contents);
}

/**
 * The bundle's first bytes name its build: a hash of its text, in place of the
 * placeholder (same length, so the source map holds). bin/code-cache.js keys the code
 * it keeps by it: V8 takes a code cache for any source of the same length, and npm
 * installs every file with the same modification time, so a new release of the same
 * size would otherwise meet the compiled code of the old one.
 * @param {string} text
 */
function stampBuildId(text) {
  const placeholder = buildIdComment(BUILD_ID_PLACEHOLDER);
  if (!text.startsWith(placeholder)) throw new Error('dist/cli.cjs: the banner does not start with the build id placeholder');
  const id = createHash('sha256').update(text).digest('hex').slice(0, BUILD_ID_PLACEHOLDER.length);
  return buildIdComment(id) + text.slice(placeholder.length);
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

/** @type {import('../src/cli/cli.js')} */
const cli = createRequire(import.meta.url)(resolve(outdir, 'cli.cjs'));

/** @param {string[]} path */
async function helpOf(path) {
  let text = '';
  const sink = { write: (/** @type {string} */ chunk) => ((text += chunk), true), once() {}, isTTY: false };
  // Unwrapped, with docs/… links as written: bin/msgctl.js lays it out for the terminal it prints to.
  await cli.run([...path, '--help'], { io: { stdout: sink, stderr: sink, stdin: process.stdin }, env: {}, rawHelp: true });
  return text;
}

// The root help (`msgctl --help`), rendered now by the real command tree, so the
// bin can print it without loading commander at all (start-up; see bin/msgctl.js).
// test/e2e/root-help.test.ts holds it equal to what the live tree prints.
await writeFile(resolve(outdir, 'root-help.js'), `export const ROOT_HELP = ${JSON.stringify(await helpOf([]))};\n`);

// Every command's help, one text file each (dist/help/patients.list.txt): `msgctl patients list
// --help` is read from there by the bin, without loading the command tree (start-up; see
// bin/msgctl.js). test/e2e/root-help.test.ts holds each equal to what the live tree prints.
await mkdir(resolve(outdir, 'help'));
// Only names the bin looks up (lower-case words); a hidden one such as `__reference` keeps the live path.
const commands = cli.commandPaths().filter((p) => p.every((word) => /^[a-z][a-z0-9-]*$/.test(word)));
for (const path of commands) {
  await writeFile(resolve(outdir, 'help', `${path.join('.')}.txt`), await helpOf(path));
}

// msgctl(1), from the tree and the help topics; package.json's "man" installs it with the package.
await mkdir(resolve(outdir, 'man'));
await writeFile(resolve(outdir, 'man', 'msgctl.1'), await cli.manPage());

// The shape of a command line, from the tree, for bin/code-cache.js (which names the code it
// keeps by the command and its options without loading the bundle): which words are commands,
// and which global options take a value (the word after `--profile` is not a command).
await writeFile(
  resolve(outdir, 'command-line.json'),
  JSON.stringify({ commands: commands.map((p) => p.join(' ')), globalOptionsWithValues: [...cli.GLOBAL_OPTIONS_WITH_VALUES] }) + '\n',
);
