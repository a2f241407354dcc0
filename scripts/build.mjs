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
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  define: { __MSGCTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
