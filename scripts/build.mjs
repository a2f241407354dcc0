// Bundles src/ into dist/ with esbuild: one small entry chunk for start-up,
// and separate chunks for everything loaded lazily (sandbox, CSV, prompts…).
// Type checking is `npm run typecheck` (tsc); esbuild only strips types.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// `--outdir DIR` lets test runs build into their own folder, so parallel runs never race on dist/.
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag > 0 ? process.argv[outdirFlag + 1] : 'dist';
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
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
            ? { path: new URL('./shims/lazy-child-process.cjs', import.meta.url).pathname }
            : undefined,
        );
      },
    },
  ],
});
