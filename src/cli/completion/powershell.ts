/**
 * The PowerShell completion script (Windows PowerShell 5.1 and PowerShell 7):
 * a `Register-ArgumentCompleter -Native` block holding the command tree as a
 * hashtable, and one walk over the words typed so far (the same walk as bash,
 * zsh and fish) to know the current command, whether a flag's value is being
 * typed, and which positional argument comes next.
 */
import { walk, type CommandSpec, type FlagSpec } from './tree.js';

/** A PowerShell single-quoted string: only ' needs escaping, as ''. */
export function psQuote(text: string): string {
  return `'${text.replace(/['\u2018\u2019\u201a\u201b]/g, "$&$&")}'`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * An array literal of `items` (each already PowerShell). One element needs the
 * unary comma, or PowerShell unrolls an inner array into the outer one.
 */
function psArray(items: string[]): string {
  if (items.length === 0) return '@()';
  if (items.length === 1) return `@(,${items[0]})`;
  return `@(${items.join(', ')})`;
}

/** `@('--yes', 'Skip the prompt')` pairs: name and tooltip (never empty: PowerShell refuses that). */
function flagEntries(flags: FlagSpec[]): string {
  return psArray(flags.flatMap((f) => f.names.map((n) => `@(${psQuote(n)}, ${psQuote(oneLine(f.description) || n)})`)));
}

/**
 * `@('--channel', @('sms', 'secure'), '')` triples (name, fixed values, what to
 * ask msgctl for at TAB time), an array rather than a hashtable: hashtable keys
 * ignore case, and -v and -V may be two different flags.
 */
function valueFlags(flags: FlagSpec[]): string {
  return psArray(
    flags
      .filter((f) => f.takesValue)
      .flatMap((f) => f.names.map((n) => `@(${psQuote(n)}, ${psArray(f.values.map(psQuote))}, ${psQuote(f.dynamic ?? '')})`)),
  );
}

function commandEntry(c: CommandSpec): string {
  const subs = psArray(c.subcommands.map((s) => `@(${psQuote(s.path.at(-1)!)}, ${psQuote(oneLine(s.description) || s.path.at(-1)!)})`));
  const args = psArray(c.argValues.map((values) => psArray(values.map(psQuote))));
  const dynamicArgs = psArray(c.argDynamic.map((kind) => psQuote(kind ?? '')));
  return [
    `    ${psQuote(c.path.join(' '))} = @{`,
    `      Subs = ${subs}`,
    `      Flags = ${flagEntries(c.flags)}`,
    `      ValueFlags = ${valueFlags(c.flags)}`,
    `      Args = ${args}`,
    `      DynArgs = ${dynamicArgs}`,
    '    }',
  ].join('\n');
}

export function powershellScript(tree: CommandSpec, header: string): string {
  const name = tree.path[0]!;
  const table = [...walk(tree)].map(commandEntry).join('\n');
  return `${header}
# Load it in every session: add this line to your profile ($PROFILE; these two lines create it
# if there is none yet, and append the line):
#   if (!(Test-Path $PROFILE)) { New-Item -ItemType File -Force $PROFILE | Out-Null }
#   Add-Content $PROFILE '${name} completion powershell | Out-String | Invoke-Expression'

Register-ArgumentCompleter -Native -CommandName ${psQuote(name)}, ${psQuote(`${name}.cmd`)}, ${psQuote(`${name}.ps1`)} -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  # The command tree, inside the block so the script leaves no variables behind.
  $__msgctlTree = @{
${table}
  }
  # The whole words before the cursor; element 0 is the command itself.
  $words = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -lt $cursorPosition } | ForEach-Object { $_.Extent.Text })
  # Values only msgctl knows (profile names, ids of campaigns…), for the profile typed so far:
  # "value<TAB>description" lines; msgctl answers within a few seconds, or with nothing.
  function __msgctlDynamic($kind, $profile) {
    if (-not $kind) { return @() }
    $profileArgs = if ($profile) { @('--profile', $profile) } else { @() }
    foreach ($line in @(& ${psQuote(name)} @profileArgs __complete $kind 2>$null)) {
      $parts = "$line".Split([char]9, 2)
      if ($parts[0]) { ,@($parts[0], $(if ($parts.Count -gt 1 -and $parts[1]) { $parts[1] } else { $parts[0] }), 'ParameterValue') }
    }
  }
  $path = ${psQuote(name)}
  $positional = 0
  $pending = $null
  $profile = $null
  foreach ($word in @($words | Select-Object -Skip 1)) {
    if ($pending) { if ($pending[0] -ceq '--profile') { $profile = $word }; $pending = $null; continue }
    if ($word.StartsWith('--profile=')) { $profile = $word.Substring(10); continue }
    $node = $__msgctlTree[$path]
    if ($word.StartsWith('-')) {
      # --flag=value carries its value; a value flag alone takes the next word.
      if ($word -notmatch '=') { $pending = @($node.ValueFlags | Where-Object { $_[0] -ceq $word }) | Select-Object -First 1 }
      continue
    }
    $sub = @($node.Subs | Where-Object { $_[0] -ceq $word })
    if ($positional -eq 0 -and $sub.Count -gt 0) { $path = "$path $word" } else { $positional++ }
  }
  $node = $__msgctlTree[$path]
  $results = @()
  if ($pending) {
    foreach ($value in $pending[1]) { $results += ,@($value, $value, 'ParameterValue') }
    if ($results.Count -eq 0) { foreach ($r in @(__msgctlDynamic $pending[2] $profile)) { $results += ,$r } }
    # No values at all: a file name or free text, which PowerShell's default completion offers.
    if ($results.Count -eq 0) { return }
  } elseif ($wordToComplete.StartsWith('-')) {
    foreach ($flag in $node.Flags) { $results += ,@($flag[0], $flag[1], 'ParameterName') }
  } else {
    if ($positional -eq 0) { foreach ($sub in $node.Subs) { $results += ,@($sub[0], $sub[1], 'Command') } }
    if ($positional -lt $node.Args.Count) { foreach ($value in $node.Args[$positional]) { $results += ,@($value, $value, 'ParameterValue') } }
    if ($positional -lt $node.DynArgs.Count -and $results.Count -eq 0) { foreach ($r in @(__msgctlDynamic $node.DynArgs[$positional] $profile)) { $results += ,$r } }
  }
  foreach ($r in $results) {
    if ($r[0].StartsWith($wordToComplete, [System.StringComparison]::OrdinalIgnoreCase)) {
      [System.Management.Automation.CompletionResult]::new($r[0], $r[0], $r[2], $r[1])
    }
  }
}
`;
}
