/**
 * The list of recent imports (completion's only source of import ids) is a file msgctl keeps
 * in the state folder, so it follows the rules of every such file (docs/security.md, promise
 * 8): one another local user could have written, or a link at its name, is not read, and
 * nothing is written through a link. Best effort as before: such a file means nothing to offer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recentImports, rememberImports } from '../../src/cli/imports/recent.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'msgctl-recent-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const BASE_URL = 'https://api.example.com/v1/';

let n = 0;
function stateHome() {
  const home = join(base, `h${n++}`);
  const folder = join(home, 'msgctl');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return { env: { XDG_STATE_HOME: home }, file: join(folder, 'recent-imports.json') };
}

const listed = (ids: string[]) => JSON.stringify({ [BASE_URL]: ids });

describe.skipIf(process.platform === 'win32')('recent imports', () => {
  it('remembers ids, newest first, in a 0600 file', async () => {
    const { env, file } = stateHome();
    await rememberImports(env, BASE_URL, ['imp_a', 'imp_b']);
    expect(await recentImports(env, BASE_URL)).toEqual(['imp_b', 'imp_a']);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
  });

  it('loses no id when imports finish at the same time (each reads, changes and writes under a lock)', async () => {
    const { env } = stateHome();
    const ids = Array.from({ length: 8 }, (_, i) => `imp_${i}`);
    await Promise.all(ids.map((id) => rememberImports(env, BASE_URL, [id])));
    expect((await recentImports(env, BASE_URL)).sort()).toEqual(ids);
  });

  it('does not read a file anyone could have written', async () => {
    const { env, file } = stateHome();
    writeFileSync(file, listed(['imp_planted']));
    chmodSync(file, 0o666);
    expect(await recentImports(env, BASE_URL)).toEqual([]);
    chmodSync(file, 0o600);
    expect(await recentImports(env, BASE_URL)).toEqual(['imp_planted']);
  });

  it('does not read through a link at its name, and replaces the link rather than writing into its target', async () => {
    const { env, file } = stateHome();
    const elsewhere = join(base, `elsewhere-${n}.json`);
    writeFileSync(elsewhere, listed(['imp_elsewhere']), { mode: 0o600 });
    symlinkSync(elsewhere, file);
    expect(await recentImports(env, BASE_URL)).toEqual([]);
    await rememberImports(env, BASE_URL, ['imp_new']);
    expect(readFileSync(elsewhere, 'utf8')).toBe(listed(['imp_elsewhere']));
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
  });

  it('does not use a state folder others can write to', async () => {
    const { env, file } = stateHome();
    writeFileSync(file, listed(['imp_x']), { mode: 0o600 });
    chmodSync(join(env.XDG_STATE_HOME, 'msgctl'), 0o777);
    expect(await recentImports(env, BASE_URL)).toEqual([]);
    await rememberImports(env, BASE_URL, ['imp_y']);
    expect(readFileSync(file, 'utf8')).toBe(listed(['imp_x']));
  });
});
