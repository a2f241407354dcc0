/**
 * The fish completion script: fish's own `complete` rules, one per command,
 * flag and fixed value, each guarded by a condition that walks the words typed
 * so far (the same walk as bash and zsh) to know which command is current.
 */
import { walk, type CommandSpec, type FlagSpec } from './tree.js';

function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

function switchTable(name: string, arms: [key: string, words: readonly string[]][]): string {
  const lines = arms
    .filter(([, words]) => words.length > 0)
    .flatMap(([key, words]) => [`        case ${fishQuote(key)}`, `            printf '%s\\n' ${words.map(fishQuote).join(' ')}`]);
  return [`function ${name}`, '    switch "$argv[1]"', ...lines, '    end', 'end'].join('\n');
}

function flagRule(name: string, condition: string, flag: FlagSpec): string {
  const parts = [condition ? `complete -c ${name} -n ${fishQuote(condition)}` : `complete -c ${name}`];
  for (const n of flag.names) parts.push(n.startsWith('--') ? `-l ${fishQuote(n.slice(2))}` : `-s ${fishQuote(n.slice(1))}`);
  // -x: a value is required and it is one of these words (no files); -r: a value, file names allowed.
  if (flag.takesValue) {
    if (flag.values.length > 0) parts.push(`-x -a ${fishQuote(flag.values.join(' '))}`);
    else if (flag.dynamic) parts.push(`-x -a ${fishQuote(`(__msgctl_dynamic ${flag.dynamic})`)}`);
    else parts.push('-r');
  }
  parts.push(`-d ${fishQuote(oneLine(flag.description))}`);
  return parts.join(' ');
}

export function fishScript(tree: CommandSpec, header: string): string {
  const commands = [...walk(tree)];
  const key = (c: CommandSpec) => c.path.join(' ');
  const name = tree.path[0]!;
  // Fewer conditional rules keep TAB quick: every rule's condition runs on each completion.
  const rules: string[] = tree.globalFlags.map((flag) => flagRule(name, '', flag));
  for (const c of commands) {
    for (const sub of c.subcommands) {
      rules.push(
        `complete -c ${name} -f -n ${fishQuote(`__msgctl_at ${shellWord(key(c))} 0`)} -a ${fishQuote(sub.path.at(-1)!)} -d ${fishQuote(oneLine(sub.description))}`,
      );
    }
    // --help is on every command, like the global flags: those rules need no condition.
    for (const flag of c.ownFlags) {
      if (c !== tree && flag.names.includes('--help')) continue;
      rules.push(flagRule(name, c === tree && flag.names.includes('--help') ? '' : `__msgctl_in ${shellWord(key(c))}`, flag));
    }
    c.argValues.forEach((values, i) => {
      const dynamic = c.argDynamic[i];
      const offered = values.length > 0 ? values.join(' ') : dynamic ? `(__msgctl_dynamic ${dynamic})` : undefined;
      if (offered === undefined) return;
      rules.push(`complete -c ${name} -f -n ${fishQuote(`__msgctl_at ${shellWord(key(c))} ${i}`)} -a ${fishQuote(offered)}`);
    });
  }
  return `${header}
${switchTable('__msgctl_subcommand_names', commands.map((c) => [key(c), c.subcommands.map((s) => s.path.at(-1)!)]))}
${switchTable('__msgctl_value_flags', commands.map((c) => [key(c), c.flags.filter((f) => f.takesValue).flatMap((f) => f.names)]))}

# Prints the current command path (e.g. "${name} patients list"), how many positionals follow it,
# and 1 when the word being typed is the value of a flag (0 otherwise).
function __msgctl_state
    # Every rule's condition asks; work it out once per command line.
    set -l line (commandline -pc)
    if test "$line" = "$__msgctl_state_line"
        printf '%s\\n' $__msgctl_state_result
        return
    end
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath ${fishQuote(name)}
    set -l expecting 0
    set -l positional 0
    for word in $tokens
        if test $expecting = 1
            set expecting 0
            continue
        end
        switch $word
            case '-*=*'
                continue
            case '-*'
                if contains -- $word (__msgctl_value_flags $cmdpath)
                    set expecting 1
                end
                continue
        end
        if test $positional = 0; and contains -- $word (__msgctl_subcommand_names $cmdpath)
            set cmdpath "$cmdpath $word"
        else
            set positional (math $positional + 1)
        end
    end
    set -g __msgctl_state_line "$line"
    set -g __msgctl_state_result $cmdpath $positional $expecting
    printf '%s\\n' $__msgctl_state_result
end

# Values only msgctl knows (profile names, ids of campaigns…), "value<TAB>description" per line,
# for the profile typed so far; msgctl answers within a few seconds, or with nothing.
function __msgctl_dynamic
    set -l tokens (commandline -opc)
    set -l profile
    for i in (seq 2 (count $tokens))
        switch $tokens[$i]
            case '--profile=*'
                set profile (string replace -- '--profile=' '' $tokens[$i])
            case '--profile'
                set -l next (math $i + 1)
                if test $next -le (count $tokens)
                    set profile $tokens[$next]
                end
        end
    end
    if test -n "$profile"
        ${name} --profile $profile __complete $argv[1] 2>/dev/null
    else
        ${name} __complete $argv[1] 2>/dev/null
    end
end

# True when the current command is $argv[1] (any position).
function __msgctl_in
    set -l state (__msgctl_state)
    test "$state[1]" = "$argv[1]"
end

# True when the current command is $argv[1] and the word being typed is positional number $argv[2].
function __msgctl_at
    set -l state (__msgctl_state)
    test "$state[1]" = "$argv[1]"; and test "$state[2]" = "$argv[2]"; and test "$state[3]" = 0
end

${rules.join('\n')}
`;
}

/** A command path as one word inside a fish condition string (which fish parses again). */
function shellWord(text: string): string {
  return `"${text}"`;
}
