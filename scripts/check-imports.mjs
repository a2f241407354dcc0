// The import rules of .dependency-cruiser.cjs (the three units, layering inside
// each, no loops), checked over src/: `npm test` runs this first, beside the type
// check. Through dependency-cruiser's API rather than its command line, so that it
// works in a checkout whose path holds a `#`: the command line loads its config as
// `file://${path}` (the `#` starts a URL fragment) and its resolver escapes `#` in
// the paths it returns. scripts/test.mjs passes such a checkout through a link
// without the `#` (the argument), which this keeps unresolved (preserveSymlinks).
//
//   node scripts/check-imports.mjs [CHECKOUT]      (default: this script's checkout)
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
/** @type {import('dependency-cruiser').IConfiguration} */
const { forbidden, options } = createRequire(join(checkout, 'package.json'))('./.dependency-cruiser.cjs');
const result = await cruise(
  ['src'],
  { ...options, baseDir: checkout, preserveSymlinks: true, ruleSet: { forbidden }, validate: true, outputType: 'err' },
  {},
  { tsConfig: extractTSConfig(join(checkout, 'tsconfig.json')) },
);
process.stdout.write(String(result.output));
process.exit(result.exitCode);
