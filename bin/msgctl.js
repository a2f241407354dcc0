#!/usr/bin/env node
// `msgctl --version`, `msgctl --help` and `msgctl <command> --help` are answered
// from text prebuilt at build time (dist/version.js, dist/root-help.js, dist/help/)
// from the real command tree, without loading it: they are what install checks, scripts and
// newcomers run most, and commander alone costs more start-up than they should.

// First, before anything else loads: on a Node older than msgctl supports the failure would be an
// obscure import error. Here, not in a module of its own: every ES module the bin loads costs its
// own resolution, read, compile and link, and this is on every command's way.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  // Only what the oldest Node msgctl may meet (18) has: no process.getBuiltinModule here.
  const { fileURLToPath } = await import('node:url');
  process.stderr.write(
    `msgctl needs Node.js 22.13 or later; this is Node.js ${process.versions.node} (${process.execPath}).\n` +
      'Install a current LTS release (22 or 24), then run msgctl with it first on PATH:\n' +
      '  Debian/Ubuntu  npm install -g --prefix ~/.local node@24    (no root; ~/.local/bin first on PATH),\n' +
      '                 or NodeSource: https://github.com/nodesource/distributions\n' +
      '  macOS          brew install node@24, then put "$(brew --prefix node@24)/bin" first on PATH\n' +
      '  Windows        winget install OpenJS.NodeJS.LTS\n' +
      `Step by step: ${fileURLToPath(new URL('../docs/getting-started.md', import.meta.url))} ("Install").\n`,
  );
  process.exit(1);
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = /** @type {{ VERSION: string }} */ (await import(built('version.js')));
  process.stdout.write(VERSION + '\n');
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
  const [{ ROOT_HELP }, layout] = await Promise.all([
    /** @type {Promise<{ ROOT_HELP: string }>} */ (import(built('root-help.js'))),
    helpRenderer(),
  ]);
  process.stdout.write(layout(ROOT_HELP));
} else if (!(await printedPrebuiltHelp(args))) {
  // One CommonJS file, loaded with the code compiled for this command last time (see code-cache.js;
  // the build inlines own-path.js into it as dist/code-cache.js). Imported here, not at the top:
  // the answers above need neither the caches nor the checks of their folders, and skip it.
  const { loadCli } = /** @type {typeof import('./code-cache.js')} */ (await import(built('code-cache.js')));
  await loadCli(args).main();
}

/**
 * A file of dist/, written by the build (a URL, so the type check of a fresh checkout,
 * which has no dist/ yet, does not look for it).
 * @param {string} name
 */
function built(name) {
  return new URL(`../dist/${name}`, import.meta.url).href;
}

/**
 * The prebuilt help is unwrapped: laid out here, as the command tree lays out its own
 * (src/cli/help/render.ts, built to dist/help-render.js), for this terminal's width (80
 * columns when not a terminal) with its docs/… links pointing at the installed docs.
 * @returns {Promise<(text: string) => string>}
 */
async function helpRenderer() {
  const { renderHelp } = /** @type {typeof import('../src/cli/help/render.js')} */ (await import(built('help-render.js')));
  const { existsSync } = process.getBuiltinModule('node:fs');
  const { fileURLToPath } = process.getBuiltinModule('node:url');
  const { sep } = process.getBuiltinModule('node:path');
  const docs = fileURLToPath(new URL('../docs', import.meta.url));
  const docsDir = existsSync(`${docs}${sep}README.md`) ? docs : undefined;
  const width = process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 80;
  return (text) => renderHelp(text, { width, docsDir, separator: sep });
}

/**
 * `msgctl patients list --help` (command words, then --help or -h, nothing else):
 * the help text written at build time for every command (dist/help/), so asking
 * for help costs what `--help` costs at the root. Anything else goes to the tree.
 */
/** @param {string[]} args */
async function printedPrebuiltHelp(args) {
  const last = args.at(-1);
  if (args.length < 2 || (last !== '--help' && last !== '-h')) return false;
  const words = args.slice(0, -1);
  if (!words.every((/** @type {string} */ word) => /^[a-z][a-z0-9-]*$/.test(word))) return false;
  // Not `import('node:fs')`: its ESM facade loads fs streams (start-up; see code-cache.js).
  const { readFileSync } = process.getBuiltinModule('node:fs');
  let text;
  try {
    text = readFileSync(new URL(`../dist/help/${words.join('.')}.txt`, import.meta.url), 'utf8');
  } catch {
    return false; // not a command (a typo, a positional): the tree answers as always
  }
  process.stdout.write((await helpRenderer())(text));
  return true;
}
