// Run before anything else loads (bin/msgctl.js imports it first; `npm run demo`
// runs it alone): on an older Node the failure would be an obscure import error.
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
