/**
 * The bash completion script. The command tree is written into it as `case`
 * tables (no associative arrays, so bash 3.2 on macOS works too), and a small
 * function walks the words typed so far to find the command being completed.
 */
import { walk, type CommandSpec } from './tree.js';
import { shQuote } from '../util/shell-word.js';

/** One `case` arm per key that has something to print. */
function caseTable(name: string, arms: [key: string, words: readonly string[]][]): string {
  const lines = arms
    .filter(([, words]) => words.length > 0)
    .map(([key, words]) => `    ${shQuote(key)}) echo ${shQuote(words.join(' '))} ;;`);
  return [`${name}() {`, '  case "$1" in', ...lines, '  esac', '}'].join('\n');
}

export function bashScript(tree: CommandSpec, header: string): string {
  const commands = [...walk(tree)];
  const key = (c: CommandSpec) => c.path.join(' ');
  const flagArms: [string, string[]][] = commands.map((c) => [key(c), c.flags.flatMap((f) => f.names)]);
  const valueFlagArms: [string, string[]][] = commands.map((c) => [key(c), c.flags.filter((f) => f.takesValue).flatMap((f) => f.names)]);
  const flagValueArms: [string, readonly string[]][] = commands.flatMap((c) =>
    c.flags.flatMap((f) => f.names.map((n): [string, readonly string[]] => [`${key(c)}|${n}`, f.values])),
  );
  const argArms: [string, readonly string[]][] = commands.flatMap((c) =>
    c.argValues.map((values, i): [string, readonly string[]] => [`${key(c)}|${i}`, values]),
  );
  const flagDynamicArms: [string, string[]][] = commands.flatMap((c) =>
    c.flags.flatMap((f) => (f.dynamic ? f.names.map((n): [string, string[]] => [`${key(c)}|${n}`, [f.dynamic!]]) : [])),
  );
  const argDynamicArms: [string, string[]][] = commands.flatMap((c) =>
    c.argDynamic.flatMap((kind, i): [string, string[]][] => (kind ? [[`${key(c)}|${i}`, [kind]]] : [])),
  );
  const name = tree.path[0]!;
  return `${header}
${caseTable('_msgctl_subcommands', commands.map((c) => [key(c), c.subcommands.map((s) => s.path.at(-1)!)]))}
${caseTable('_msgctl_flags', flagArms)}
${caseTable('_msgctl_value_flags', valueFlagArms)}
${caseTable('_msgctl_flag_values', flagValueArms)}
${caseTable('_msgctl_arg_values', argArms)}
${caseTable('_msgctl_flag_dynamic', flagDynamicArms)}
${caseTable('_msgctl_arg_dynamic', argDynamicArms)}

# Values only msgctl knows (profile names, ids of campaigns…): asked for at TAB time, for the
# profile typed so far; msgctl answers within a few seconds, or with nothing.
_msgctl_dynamic() {
  local kind="$1" profile="$2"
  [[ -z $kind ]] && return
  ${name} \${profile:+--profile "$profile"} __complete "$kind" 2>/dev/null | cut -f1
}

# Adds to COMPREPLY the lines of stdin that begin with $1, as they are. Not compgen -W, which
# expands each of its words as the shell would ($(…), \$VAR, ~, {a,b}): these values come from the
# service, and a value must never run as a command (msgctl offers only ids and plain names, too).
# Fed by a here-string, which bash's POSIX mode allows (a process substitution it may not).
_msgctl_add_matching() {
  local value
  while IFS= read -r value; do
    [[ -n $value && $value == "$1"* ]] && COMPREPLY+=("$value")
  done
}

_msgctl_completion() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local path=${shQuote(name)} positional=0 expecting=0 word i flag="" profile=""
  COMPREPLY=()
  # Find the (sub)command being completed: skip flags and their values, count positionals.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    # bash splits --flag=value at "=" (COMP_WORDBREAKS): the "=" itself is not a word of its own.
    [[ $word == "=" ]] && continue
    if ((expecting)); then
      expecting=0
      [[ $flag == --profile ]] && profile=$word
      continue
    fi
    case "$word" in
      -*=*) continue ;;
      -*)
        flag=$word
        [[ " $(_msgctl_value_flags "$path") " == *" $word "* ]] && expecting=1
        continue ;;
    esac
    if ((positional == 0)) && [[ " $(_msgctl_subcommands "$path") " == *" $word "* ]]; then
      path="$path $word"
    else
      positional=$((positional + 1))
    fi
  done
  if [[ $cur == "=" ]]; then
    cur=""
  elif [[ $prev == "=" ]]; then
    prev="\${COMP_WORDS[COMP_CWORD-2]}"
  fi
  if [[ $prev == -* && " $(_msgctl_value_flags "$path") " == *" $prev "* ]]; then
    # A flag's value: its fixed values, those msgctl knows, or (nothing here) the shell's file names.
    COMPREPLY=($(compgen -W "$(_msgctl_flag_values "$path|$prev")" -- "$cur"))
    _msgctl_add_matching "$cur" <<<"$(_msgctl_dynamic "$(_msgctl_flag_dynamic "$path|$prev")" "$profile")"
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_msgctl_flags "$path")" -- "$cur"))
  elif ((positional == 0)) && [[ -n "$(_msgctl_subcommands "$path")" ]]; then
    COMPREPLY=($(compgen -W "$(_msgctl_subcommands "$path")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_msgctl_arg_values "$path|$positional")" -- "$cur"))
    _msgctl_add_matching "$cur" <<<"$(_msgctl_dynamic "$(_msgctl_arg_dynamic "$path|$positional")" "$profile")"
  fi
  return 0
}

# -o default: where msgctl has nothing to offer (a --csv FILE, a path), bash completes file names.
complete -o default -F _msgctl_completion ${name}
`;
}
