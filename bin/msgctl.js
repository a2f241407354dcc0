#!/usr/bin/env node
// `msgctl --version` and `msgctl --help` are answered from tiny prebuilt modules
// (dist/version.js, dist/root-help.js, written at build time from the real
// command tree) without loading it: they are what install checks, scripts and
// newcomers run most, and commander alone costs more start-up than they should.
import './check-node.js';
import './compile-cache.js';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(VERSION + '\n');
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
  const { ROOT_HELP } = await import('../dist/root-help.js');
  process.stdout.write(ROOT_HELP);
} else {
  const { main } = await import('../dist/cli.js');
  await main();
}
