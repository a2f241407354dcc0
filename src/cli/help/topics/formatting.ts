/** `msgctl help formatting`: the output modes msgctl has (a terminal, a pipe, --json). */
import type { HelpTopic } from '../topic.js';

export const topic: HelpTopic = {
  name: 'formatting',
  summary: 'output: tables on a terminal, tab-separated rows in a pipe, JSON Lines with --json',
  text: `What a command prints depends on where its output goes. Results go to stdout; progress, prompts, warnings and errors always go to stderr, so a pipe gets only the results.

Modes:
  --json              JSON Lines: one complete API object per line, exactly as the service sent it (a list prints one line per record as pages arrive; a single resource one line). Nothing else is on stdout, so | jq always works. Errors are one problem JSON line on stderr.
  a terminal          a table that fits the window: low-value columns are left out first (a line on stderr names them), text is shortened; times are short local time. Single records print as "label  value" lines.
  a pipe or a file    tab-separated rows, no header, no colour, every field at full length (cut -f1 gives ids); a single record prints as "field<TAB>value" lines. Times stay RFC 3339 UTC.

Options:
  --wide              on a terminal, show every column even if the table gets wider than the window
  --limit N, --all    how many records a list prints (default 50); --all streams every page. A list cut at --limit says on stderr, on a terminal, that more exist.
  --quiet             print nothing but results and errors
  --verbose           one stderr line per HTTP attempt: method, path, status, duration, request id, retry reason (never a key, token, body or query value)
  --no-color          no colour (also NO_COLOR, CLICOLOR=0, TERM=dumb)

Text from data (names, message bodies) never reaches a terminal, a table or a tab-separated row with control characters: they are shown escaped (\\x1b, \\u202e). --json keeps the data exact, escaped by JSON itself.

Examples:
  msgctl patients list --json | jq -r .id
  msgctl messages list --after 7d --all | cut -f1
  msgctl campaigns list --wide
`,
};
