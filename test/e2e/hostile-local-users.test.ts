/**
 * docs/security.md, promise 8: nothing another local user can create, replace or
 * swap is ever run as code or read as configuration, credentials or a journal.
 * Two real users (test/helpers/local-users.ts): the attacker (uid 65534) prepares
 * the trap with its own processes, the victim (uid 1234) runs msgctl into it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binPath } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { ATTACKER, VICTIM, msgctlAs, runAs, stage, whyNoTwoUsers } from '../helpers/local-users.js';

const why = whyNoTwoUsers();
const stages: string[] = [];
afterAll(() => {
  for (const base of stages) rmSync(base, { recursive: true, force: true });
});
function newStage() {
  const s = stage();
  stages.push(s.base);
  return s;
}

/** A script only the attacker runs, written where both users can read it. */
function script(folder: string, name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text, { mode: 0o644 });
  return path;
}

// What the attacker does to the code cache: a V8 code cache made from their own source of
// the same length as the bundle's (V8 checks the length, not the text), saved under the
// name the victim's next run reads, and a symlink of theirs in the sticky folder that
// points at the victim's real cache folder (so every check of it passes) and, a moment
// later, at a folder of theirs holding the crafted file.
const CRAFT = `
const fs = require('fs'), vm = require('vm'), path = require('path');
const [bundle, folder, name, marker] = process.argv.slice(2);
const source = fs.readFileSync(bundle, 'utf8');
const head = '(function (exports, require, module, __filename, __dirname) {';
const length = head.length + source.length + 3;
let evil = head + 'require("fs").writeFileSync(' + JSON.stringify(marker) + ', "ran as " + process.getuid()); process.exit(42);/*';
evil += ' '.repeat(length - evil.length - 5) + '*/\\n})';
fs.mkdirSync(path.join(folder, 'msgctl', 'code'), { recursive: true });
fs.writeFileSync(path.join(folder, 'msgctl', 'code', name), new vm.Script(evil, { filename: bundle }).createCachedData());
`;
const FLIP = `
const fs = require('fs');
const [link, ...targets] = process.argv.slice(2);
let i = 0;
const flip = () => {
  const next = link + '.next';
  fs.rmSync(next, { force: true });
  fs.symlinkSync(targets[i++ % targets.length], next);
  fs.renameSync(next, link);
  setTimeout(flip, 1 + (i % 3));
};
flip();
`;

describe.skipIf(why !== null)(`two local users${why ? ` (skipped: ${why})` : ''}`, () => {
  it("a crafted code cache behind another user's symlink in a sticky folder never runs, swapped or not (HIGH)", async () => {
    const s = newStage();
    const bundle = join(binPath(), '..', '..', 'dist', 'cli.cjs');
    const own = join(s.home, 'cache');
    // The victim's own cache, in its home: the name a `completion bash` run reads its code from.
    const first = await msgctlAs(VICTIM, ['completion', 'bash'], s.env({ XDG_CACHE_HOME: own }));
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const name = readdirSync(join(own, 'msgctl', 'code')).find((n) => n.startsWith('cli.completion.'))!;
    expect(name).toBeDefined();

    const marker = join(s.sticky, 'attacker-code-ran');
    const evil = join(s.sticky, 'evil');
    const link = join(s.sticky, 'cache');
    const attackerEnv = { PATH: process.env.PATH, HOME: s.sticky };
    const craft = await runAs(ATTACKER, [process.execPath, script(s.base, 'craft.cjs', CRAFT), bundle, evil, name, marker], attackerEnv);
    expect(craft.exitCode, String(craft.stderr)).toBe(0);
    const flipper = runAs(ATTACKER, [process.execPath, script(s.base, 'flip.cjs', FLIP), link, own, evil], attackerEnv, { timeout: 600_000 });
    try {
      // The victim's cache goes through the attacker's link (XDG_CACHE_HOME=/tmp/… under cron or CI).
      const codes: number[] = [];
      for (let run = 0; run < 40 && !existsSync(marker); run++) {
        const r = await msgctlAs(VICTIM, ['completion', 'bash'], s.env({ XDG_CACHE_HOME: link }));
        codes.push(r.exitCode ?? -1);
        if (r.exitCode === 0) expect(r.stdout).toBe(first.stdout);
      }
      expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'never ran').toBe('never ran');
      expect(codes.filter((c) => c !== 0)).toEqual([]);
    } finally {
      flipper.kill();
      await flipper.catch(() => undefined);
    }
  }, 240_000);

  it("a crafted code cache in the victim's own folder (a file msgctl did not write) never runs", async () => {
    const s = newStage();
    const bundle = join(binPath(), '..', '..', 'dist', 'cli.cjs');
    const env = s.env();
    const first = await msgctlAs(VICTIM, ['completion', 'bash'], env);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const code = join(s.home, '.cache', 'msgctl', 'code');
    const name = readdirSync(code).find((n) => n.startsWith('cli.completion.'))!;
    // Made elsewhere (a backup, another machine, a hole we do not know of) and put in place as the victim's own 0600 file.
    const marker = join(s.sticky, 'planted-code-ran');
    const craft = await runAs(ATTACKER, [process.execPath, script(s.base, 'craft.cjs', CRAFT), bundle, join(s.sticky, 'made'), name, marker], { PATH: process.env.PATH });
    expect(craft.exitCode, String(craft.stderr)).toBe(0);
    writeFileSync(join(code, name), readFileSync(join(s.sticky, 'made', 'msgctl', 'code', name)), { mode: 0o600 });
    chownSync(join(code, name), VICTIM, VICTIM);
    chmodSync(join(code, name), 0o600);
    const r = await msgctlAs(VICTIM, ['completion', 'bash'], env);
    expect(existsSync(marker)).toBe(false);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(first.stdout);
  });
});
