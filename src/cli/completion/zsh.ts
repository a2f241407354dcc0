/**
 * The zsh completion script: the same walk as bash over `case` tables, but
 * commands and flags are offered with their descriptions (`_describe`).
 * Works both from $fpath (as the autoloaded `_msgctl`) and when sourced.
 */
import { shQuote } from '../util/shell-word.js';
import { walk, type CommandSpec } from './tree.js';

/** `_describe` entries are "name:description"; a colon in the name would end it early. */
function described(name: string, description: string): string {
  return shQuote(`${name.replace(/:/g, '\\:')}:${description.replace(/\s+/g, ' ')}`);
}

function replyTable(name: string, arms: [key: string, words: string[]][]): string {
  const lines = arms
    .filter(([, words]) => words.length > 0)
    .map(([key, words]) => `    (${shQuote(key)}) reply=(${words.join(' ')}) ;;`);
  return [`${name}() {`, '  reply=()', '  case "$1" in', ...lines, '  esac', '}'].join('\n');
}

export function zshScript(tree: CommandSpec, header: string): string {
  const commands = [...walk(tree)];
  const key = (c: CommandSpec) => c.path.join(' ');
  const q = (words: readonly string[]) => words.map(shQuote);
  const name = tree.path[0]!;
  return `#compdef ${name}
${header}
${replyTable('_msgctl_subcommand_names', commands.map((c) => [key(c), q(c.subcommands.map((s) => s.path.at(-1)!))]))}
${replyTable('_msgctl_subcommands', commands.map((c) => [key(c), c.subcommands.map((s) => described(s.path.at(-1)!, s.description))]))}
${replyTable('_msgctl_flags', commands.map((c) => [key(c), c.flags.flatMap((f) => f.names.map((n) => described(n, f.description)))]))}
${replyTable('_msgctl_value_flags', commands.map((c) => [key(c), q(c.flags.filter((f) => f.takesValue).flatMap((f) => f.names))]))}
${replyTable('_msgctl_flag_values', commands.flatMap((c) => c.flags.flatMap((f) => f.names.map((n): [string, string[]] => [`${key(c)}|${n}`, q(f.values)]))))}
${replyTable('_msgctl_arg_values', commands.flatMap((c) => c.argValues.map((values, i): [string, string[]] => [`${key(c)}|${i}`, q(values)])))}
${replyTable('_msgctl_flag_dynamic', commands.flatMap((c) => c.flags.flatMap((f) => (f.dynamic ? f.names.map((n): [string, string[]] => [`${key(c)}|${n}`, [f.dynamic!]]) : []))))}
${replyTable('_msgctl_arg_dynamic', commands.flatMap((c) => c.argDynamic.flatMap((kind, i): [string, string[]][] => (kind ? [[`${key(c)}|${i}`, [kind]]] : []))))}

# Values only msgctl knows (profile names, ids of campaigns…), asked for at TAB time for the profile
# typed so far, as "value:description" in reply; msgctl answers within a few seconds, or with nothing.
_msgctl_dynamic() {
  local kind=$1 profile=$2 line
  reply=()
  [[ -z $kind ]] && return
  for line in \${(f)"$(${name} \${profile:+--profile} \${profile:+"$profile"} __complete "$kind" 2>/dev/null)"}; do
    [[ -n $line ]] && reply+=("\${\${line%%$'\t'*}//:/\\:}:\${line#*$'\t'}")
  done
}

# Offers what the value at hand ($1: flag or arg; $2: its table key) may be: fixed values, else
# those msgctl knows, else file names.
_msgctl_offer_values() {
  _msgctl_\$1_values "$2"
  candidates=("\${reply[@]}")
  if (( $#candidates )); then compadd -a candidates; return; fi
  _msgctl_\$1_dynamic "$2"
  local kind=\${reply[1]}
  if [[ -n $kind ]]; then
    _msgctl_dynamic "$kind" "$profile"
    candidates=("\${reply[@]}")
    (( $#candidates )) && _describe -t values 'value' candidates
    return
  fi
  _files
}

_msgctl() {
  local cmdpath=${shQuote(name)} word cur prev flag profile
  local -i i expecting=0 positional=0
  # Helpers answer in reply; what is offered is copied to candidates, since _describe may use reply itself.
  local -a reply candidates
  # Find the (sub)command being completed: skip flags and their values, count positionals.
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if (( expecting )); then
      expecting=0
      [[ $flag == --profile ]] && profile=$word
      continue
    fi
    case $word in
      (--profile=*) profile=\${word#*=}; continue ;;
      (-*=*) continue ;;
      (-*)
        flag=$word
        _msgctl_value_flags "$cmdpath"
        (( \${reply[(Ie)$word]} )) && expecting=1
        continue ;;
    esac
    _msgctl_subcommand_names "$cmdpath"
    if (( positional == 0 && \${reply[(Ie)$word]} )); then
      cmdpath="$cmdpath $word"
    else
      positional+=1
    fi
  done
  cur=\${words[CURRENT]}
  prev=\${words[CURRENT-1]}
  if [[ $cur == -*=* ]]; then
    prev=\${cur%%=*}
    compset -P '*='
    _msgctl_offer_values flag "$cmdpath|$prev"
    return
  fi
  _msgctl_value_flags "$cmdpath"
  if [[ $prev == -* ]] && (( \${reply[(Ie)$prev]} )); then
    _msgctl_offer_values flag "$cmdpath|$prev"
    return
  fi
  if [[ $cur == -* ]]; then
    _msgctl_flags "$cmdpath"
    candidates=("\${reply[@]}")
    _describe -t options 'flag' candidates
    return
  fi
  _msgctl_subcommands "$cmdpath"
  candidates=("\${reply[@]}")
  if (( positional == 0 && $#candidates )); then
    _describe -t commands 'command' candidates
    return
  fi
  _msgctl_offer_values arg "$cmdpath|$positional"
}

# Autoloaded from $fpath the file runs as _msgctl itself; sourced, it registers the function.
if [[ \${funcstack[1]} == _msgctl ]]; then
  _msgctl "$@"
else
  compdef _msgctl ${name}
fi
`;
}
