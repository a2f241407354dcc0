/**
 * PowerShell keeps names intact (issue 32, item 3). Windows PowerShell 5.1 and
 * PowerShell 7 both decode a native command's output with
 * [Console]::OutputEncoding, the console's code page (437 in the US, 1252 is
 * the ANSI page of Western Windows): msgctl's UTF-8 "Zoë" arrives as "Zo├½" or
 * "ZoÃ«". No PowerShell runs here: the built msgctl's real bytes are decoded
 * the way each would, for the three forms docs/platforms.md gives.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { msgctl, sandboxEnv, type CliResult } from '../helpers/cli.js';
import { msgctl as inThisProcess } from '../helpers/in-process.js';

const sandbox = useSandbox();

/** Code page 437, bytes 0x80–0xFF (the lower half is ASCII). */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** How PowerShell turns a native command's stdout bytes into text, given [Console]::OutputEncoding. */
function asPowerShellReads(bytes: Buffer, consoleEncoding: 'cp437' | 'windows-1252' | 'utf-8'): string {
  if (consoleEncoding === 'cp437') return [...bytes].map((b) => (b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80]!)).join('');
  return new TextDecoder(consoleEncoding).decode(bytes);
}

let zoe = '';
/** The binary's `patients get` of Zoë, run once for the two tests that read its bytes. */
let zoeAsJson: Promise<CliResult> | undefined;
const readZoe = () => (zoeAsJson ??= msgctl(['patients', 'get', zoe, '--json', 'first_name,last_name'], { env: sandboxEnv(sandbox.current) }));

beforeAll(async () => {
  // Set-up only: created in this process.
  const r = await inThisProcess(['patients', 'create', '--first-name', 'Zoë', '--last-name', 'Ångström', '--phone', '+15555550291', '--json'], { env: sandboxEnv(sandbox.current) });
  expect(r.exitCode, r.stderr).toBe(0);
  zoe = JSON.parse(r.stdout).id;
});

describe('PowerShell reading msgctl', () => {
  it('the table is right: 437 has 128 upper characters', () => {
    expect([...CP437_HIGH]).toHaveLength(128);
  });

  it('with the console code page (both 5.1 and 7 by default), a pipe garbles names: the docs must not rely on it', async () => {
    const r = await readZoe();
    const bytes = Buffer.from(r.stdout, 'utf8');
    expect(asPowerShellReads(bytes, 'cp437')).toContain('"Zo├½"');
    expect(asPowerShellReads(bytes, 'windows-1252')).toContain('"ZoÃ«"');
  });

  it('[Console]::OutputEncoding = [Text.Encoding]::UTF8 reads the bytes msgctl writes as they are', async () => {
    const r = await readZoe();
    const bytes = Buffer.from(r.stdout, 'utf8');
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false); // no BOM to trip ConvertFrom-Json
    expect(JSON.parse(asPowerShellReads(bytes, 'utf-8'))).toEqual({ first_name: 'Zoë', last_name: 'Ångström' });
  });

  it('-o FILE never passes through PowerShell: the file holds UTF-8, for Get-Content -Encoding utf8', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-ps-'));
    const file = join(dir, 'patients.jsonl');
    const r = await msgctl(['patients', 'list', '--all', '--json', 'first_name', '-o', file], { env: sandboxEnv(sandbox.current) });
    expect(r.exitCode, r.stderr).toBe(0);
    const text = asPowerShellReads(readFileSync(file), 'utf-8');
    expect(text.split('\n').filter(Boolean).map((l) => JSON.parse(l).first_name)).toContain('Zoë');
    // The same for a table written for a person to open: -o always writes UTF-8.
    const tsv = join(dir, 'patients.tsv');
    await msgctl(['patients', 'list', '--all', '-o', tsv], { env: sandboxEnv(sandbox.current) });
    expect(asPowerShellReads(readFileSync(tsv), 'utf-8')).toContain('Zoë Ångström');
  });
});
