/**
 * `msgctl completion powershell`, generated from the same command tree as
 * bash/zsh/fish. No PowerShell runs here (none is installable on this Debian
 * image), so the test checks what the script is made of: every command, flag
 * and fixed value of the live tree, quoted for PowerShell, with balanced
 * brackets outside strings, and single-element arrays written so PowerShell
 * does not unroll them.
 */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { completionScript } from '../../src/cli/completion/script.js';
import { completionTree, walk } from '../../src/cli/completion/tree.js';
import { psQuote } from '../../src/cli/completion/powershell.js';

const program = buildProgram(() => async () => {});
const script = completionScript(program, 'powershell', '0.0.0-test');
const tree = completionTree(program);

/** The script without comments and with every single-quoted string blanked, for structure checks. */
const unquoted = script
  .split('\n')
  .filter((line) => !line.trimStart().startsWith('#'))
  .join('\n')
  .replace(/'(?:[^']|'')*'/g, "''");

describe('PowerShell completion script', () => {
  it('registers a native argument completer for msgctl and its npm shims', () => {
    expect(script).toContain("Register-ArgumentCompleter -Native -CommandName 'msgctl', 'msgctl.cmd', 'msgctl.ps1' -ScriptBlock {");
    expect(script).toContain('param($wordToComplete, $commandAst, $cursorPosition)');
    expect(script).toContain('[System.Management.Automation.CompletionResult]::new(');
  });

  it('holds every command of the tree, once, with its subcommands', () => {
    for (const c of walk(tree)) {
      const key = `${psQuote(c.path.join(' '))} = @{`;
      expect(script.split(key).length - 1, c.path.join(' ')).toBe(1);
      for (const sub of c.subcommands) expect(script).toContain(`@(${psQuote(sub.path.at(-1)!)}, `);
    }
  });

  it('offers fixed flag values and argument values', () => {
    const send = script.slice(script.indexOf("'msgctl send' = @{"));
    expect(send).toMatch(/@\('--channel', @\('secure', 'sms'\), ''\)|@\('--channel', @\('sms', 'secure'\), ''\)/);
    const completion = script.slice(script.indexOf("'msgctl completion' = @{"));
    expect(completion).toMatch(/Args = @\(,@\('bash', 'zsh', 'fish', 'powershell'\)\)/);
  });

  it('asks msgctl for profile names and ids at TAB time, for the profile typed so far', () => {
    const get = script.slice(script.indexOf("'msgctl campaigns get' = @{"));
    expect(get).toMatch(/DynArgs = @\(,'campaigns'\)/);
    expect(script).toMatch(/@\('--profile', @\(\), 'profiles'\)/);
    expect(script).toContain('__complete $kind 2>$null');
    expect(script).toContain("if ($pending[0] -ceq '--profile') { $profile = $word }");
  });

  it('quotes for PowerShell: apostrophes doubled, $ and backticks inert in single quotes', () => {
    expect(psQuote("profile's")).toBe("'profile''s'");
    expect(psQuote('$(rm -rf ~) `n')).toBe("'$(rm -rf ~) `n'");
    expect(script).toContain("profile''s");
    // Every quote is paired: blanking the strings leaves no stray quote.
    expect(unquoted.replace(/''/g, '')).not.toContain("'");
  });

  it('has balanced brackets outside strings', () => {
    for (const [open, close] of [['{', '}'], ['(', ')'], ['[', ']']]) {
      expect(unquoted.split(open!).length, `${open}${close}`).toBe(unquoted.split(close!).length);
    }
  });
});
