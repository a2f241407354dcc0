// Bundles src/ into dist/ with esbuild: one small entry chunk for start-up,
// and separate chunks for everything loaded lazily (sandbox, CSV, prompts…).
// Type checking is `npm run typecheck` (tsc); esbuild only strips types.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// `--outdir DIR` lets test runs build into their own folder, so parallel runs never race on dist/.
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag > 0 ? process.argv[outdirFlag + 1] : 'dist';
await rm(outdir, { recursive: true, force: true });
await build({
  // `version` is its own tiny entry so `msgctl --version` never loads the command tree.
  entryPoints: { cli: 'src/cli/cli.ts', version: 'src/cli/version.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies stay external (installed beside dist/), except commander: it is
  // needed on every start, and bundling it saves Node's CJS resolution and
  // ESM translation of its files (~15 ms of a ~75 ms start).
  external: Object.keys(pkg.dependencies).filter((name) => name !== 'commander'),
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  // Bundled CommonJS (commander) calls require() for Node built-ins; give ESM chunks one.
  banner: { js: "import { createRequire as __msgctlCreateRequire } from 'node:module'; const require = __msgctlCreateRequire(import.meta.url);" },
  define: { __MSGCTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  minifySyntax: true,
  minifyWhitespace: true,
  plugins: [
    {
      name: 'lazy-child-process-for-commander',
      setup(b) {
        b.onResolve({ filter: /^node:child_process$/ }, (args) =>
          /node_modules[\\/]commander[\\/]/.test(args.importer)
            ? { path: fileURLToPath(new URL('./shims/lazy-child-process.cjs', import.meta.url)) }
            : undefined,
        );
      },
    },
  ],
});

// The root help (`msgctl --help`), rendered now by the real command tree, so the
// bin can print it without loading commander at all (start-up; see bin/msgctl.js).
// test/e2e/root-help.test.ts holds it equal to what the live tree prints.
// Paths go through pathToFileURL/fileURLToPath: string-built URLs break on Windows drive
// letters and on folders with spaces or `#` ("C:\\Users\\Jane Doe").
const { run, commandPaths } = await import(pathToFileURL(resolve(outdir, 'cli.js')).href);
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
