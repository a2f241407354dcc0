// Run before anything else loads (bin/msgctl.js imports it first; `npm run demo`
// runs it alone): on an older Node the failure would be an obscure import error.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `msgctl needs Node.js 22.13 or later; this is Node.js ${process.versions.node}.\n` +
      'Install a current LTS release (22 or 24) from nodejs.org or your package manager.\n',
  );
  process.exit(1);
}
