// `npm run demo`: installs the dependencies, builds, starts a local sandbox, sends
// a real message through the built CLI, shows it back, and stops the sandbox.
// Nothing touches your config: the CLI gets the sandbox's URL and key through the
// environment. On a Node older than msgctl supports it runs on a fetched one
// (scripts/supported-node.mjs).
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureSupportedNode } from './supported-node.mjs';

ensureSupportedNode(fileURLToPath(import.meta.url));
const checkout = fileURLToPath(new URL('..', import.meta.url));
/** @param {string} command @param {string[]} args */
function setUp(command, args) {
  // npm is a .cmd script on Windows: only a shell starts it there.
  const result = spawnSync(command, args, { cwd: checkout, stdio: 'inherit', shell: command === 'npm' && process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
setUp('npm', ['ci', '--no-audit', '--no-fund']);
setUp(process.execPath, ['scripts/build.mjs']);

const bin = fileURLToPath(new URL('../bin/msgctl.js', import.meta.url));
const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
const firstLine = await new Promise((resolve, reject) => {
  createInterface({ input: sandbox.stdout }).once('line', resolve);
  sandbox.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});
const info = JSON.parse(firstLine);
const env = { ...process.env, MSGCTL_BASE_URL: info.base_url, MSGCTL_API_KEY: info.api_key };
const run = (/** @type {string[]} */ args) => {
  console.log(`\n$ msgctl ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  process.stdout.write(execFileSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' }));
};
try {
  console.log(`Sandbox running at ${info.base_url}`);
  run(['org']);
  run(['send', '--to', '(555) 555-0123', 'Hi Ada, your lab results are ready. Reply STOP to opt out.']);
  run(['patients', 'list', '--phone', '555-555-0123']);
  run(['send', '--to', '555.555.0142', '--first-name', 'Bo', '--last-name', 'Chen', '--json', 'Welcome to Riverside Family Clinic!']);
} finally {
  sandbox.kill('SIGINT');
}
