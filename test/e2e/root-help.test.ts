/**
 * `msgctl --help` and `--version` are answered by the bin from modules written
 * at build time; they must print exactly what the live command tree prints.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { execa } from 'execa';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { binPath, isolatedEnv, msgctl } from '../helpers/cli.js';
import { msgctl as inProcess } from '../helpers/in-process.js';
import { renderHelp } from '../../src/cli/help/render.js';
import { helpLayout } from '../../src/cli/help/layout.js';

describe('prebuilt root help and version', () => {
  it('prints the same root help as the command tree (`msgctl help`)', async () => {
    const fast = await msgctl(['--help'], { env: isolatedEnv() });
    const live = await msgctl(['help'], { env: isolatedEnv() });
    expect(fast.exitCode).toBe(0);
    expect(fast.stdout).toBe(live.stdout);
    expect(fast.stdout).toMatch(/^Usage: msgctl \[options\] \[command\]/);
    expect(fast.stdout).toMatch(/campaigns/);
    expect((await msgctl(['-h'], { env: isolatedEnv() })).stdout).toBe(live.stdout);
  });

  it('prints the package version', async () => {
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
    for (const flag of ['--version', '-V']) {
      const r = await msgctl([flag], { env: isolatedEnv() });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
    }
  });

  it("answers `<command> --help` from dist/help/, exactly as the live tree prints each command's help", async () => {
    const folder = join(dirname(binPath()), '..', 'dist', 'help');
    const files = readdirSync(folder);
    expect(files).toContain('patients.list.txt');
    expect(files).toContain('send.txt');
    for (const file of files) {
      const words = file.replace(/\.txt$/, '').split('.');
      // A global option first sends argv past the prebuilt texts, to the command tree.
      const live = await inProcess(['--quiet', ...words, '--help'], { env: isolatedEnv() });
      expect(live.exitCode, file).toBe(0);
      // Prebuilt unwrapped; laid out as the tree lays out its own (src/cli/help/render.ts).
      expect(renderHelp(readFileSync(join(folder, file), 'utf8'), helpLayout({ isTTY: false })), file).toBe(live.stdout);
    }
    // The bin lays out the prebuilt text the same way, with links into the docs beside it (none in this build).
    const prebuilt = (name: string) => renderHelp(readFileSync(join(folder, name), 'utf8'), { width: 80 });
    const fast = await msgctl(['patients', 'list', '--help'], { env: isolatedEnv() });
    expect(fast.exitCode).toBe(0);
    expect(fast.stdout).toBe(prebuilt('patients.list.txt'));
    expect((await msgctl(['send', '-h'], { env: isolatedEnv() })).stdout).toBe(prebuilt('send.txt'));
  });

  it('leaves words that are not a command path to the tree (its errors and suggestions)', async () => {
    const typo = await msgctl(['patients', 'lst', '--help'], { env: isolatedEnv() });
    expect(typo.stdout).toMatch(/^Usage: msgctl patients /);
    const outside = await msgctl(['../../etc/passwd', '--help'], { env: isolatedEnv() });
    expect(outside.stdout + outside.stderr).not.toMatch(/root:/);
  });
});

describe('prebuilt help on a real terminal', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)(`is wrapped to the terminal's width by the bin, without the command tree${hasScript ? '' : ' — skipped: util-linux script is not installed'}`, async () => {
    for (const [columns, words] of [[60, ['conversations', '--help']], [70, ['--help']]] as const) {
      const command = `stty cols ${columns}; "${process.execPath}" "${binPath()}" ${words.join(' ')}`;
      const r = await execa('script', ['-qec', command, '/dev/null'], { env: isolatedEnv(), extendEnv: false, reject: false, timeout: 20_000 });
      const lines = String(r.stdout).replace(/\r/g, '').split('\n');
      const examples = lines.indexOf('Examples:');
      expect(examples, String(r.stdout)).toBeGreaterThan(0);
      for (const line of lines.slice(0, examples)) expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(columns);
    }
  });
});

describe('the man page', () => {
  const page = () => join(dirname(binPath()), '..', 'dist', 'man', 'msgctl.1');
  const hasGroff = spawnSync('groff', ['--version']).status === 0;
  it('is built from the command tree and the help topics', () => {
    const text = readFileSync(page(), 'utf8');
    expect(text).toMatch(/^\.TH MSGCTL 1 /);
    for (const section of ['NAME', 'SYNOPSIS', 'GLOBAL OPTIONS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS', 'DATES', 'FILES', 'SEE ALSO']) expect(text).toContain(`.SH ${section}`);
    expect(text).toContain('.SS "msgctl campaigns start [options] <id>"');
    expect(text).toContain('MSGCTL_API_KEY');
    // troff reads bytes: anything beyond ASCII is a named glyph.
    expect(text).not.toMatch(/[^\x00-\x7f]/);
  });

  it.skipIf(!hasGroff)(`renders without a single groff warning${hasGroff ? '' : ' — skipped: groff is not installed'}`, () => {
    const r = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', page()], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const rendered = spawnSync('groff', ['-man', '-Tutf8', page()], { encoding: 'utf8' }).stdout;
    expect(rendered).toContain('msgctl campaigns start');
  });
});
